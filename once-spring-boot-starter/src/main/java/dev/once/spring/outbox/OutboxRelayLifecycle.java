package dev.once.spring.outbox;

import dev.once.outbox.OutboxRelay;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the outbox relay with the application context (unless {@code once.outbox.relay.auto-start}
 * is false: then only an explicit {@link #start()} does) and stops it (waiting for rows in flight
 * up to the relay's shutdown timeout) before the context destroys its beans, so no handler runs
 * while the DataSource closes. Thread-safe.
 */
final class OutboxRelayLifecycle implements SmartLifecycle {
  private final OutboxRelay relay;
  private final boolean autoStart;
  private boolean running;

  OutboxRelayLifecycle(OutboxRelay relay, boolean autoStart) {
    this.relay = relay;
    this.autoStart = autoStart;
  }

  @Override
  public boolean isAutoStartup() {
    return autoStart;
  }

  @Override
  public synchronized void start() {
    if (!running) {
      relay.start();
      running = true;
    }
  }

  @Override
  public synchronized void stop() {
    if (running) {
      relay.close();
      running = false;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return running;
  }
}
