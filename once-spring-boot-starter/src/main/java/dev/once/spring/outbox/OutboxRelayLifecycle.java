package dev.once.spring.outbox;

import dev.once.outbox.OutboxRelay;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the outbox relay with the application context and stops it (waiting for rows in flight up
 * to the relay's shutdown timeout) before the context destroys its beans, so no handler runs while
 * the DataSource closes. Thread-safe.
 */
final class OutboxRelayLifecycle implements SmartLifecycle {
  private final OutboxRelay relay;
  private boolean running;

  OutboxRelayLifecycle(OutboxRelay relay) {
    this.relay = relay;
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
