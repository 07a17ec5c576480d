package dev.once.spring.outbox;

import dev.once.outbox.OutboxRelay;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Wakes the application's relay, if it runs one. The relay is looked up once, when every singleton
 * exists: a bean lookup per committed transaction cost measurable CPU on the payment path (JFR:
 * {@code findAutowireCandidates} under every append). Thread-safe.
 */
final class ApplicationRelayWakeUp implements RelayWakeUp, SmartInitializingSingleton {
  private final ObjectProvider<OutboxRelay> relays;
  private volatile boolean resolved;
  private volatile OutboxRelay relay;

  ApplicationRelayWakeUp(ObjectProvider<OutboxRelay> relays) {
    this.relays = relays;
  }

  @Override
  public void afterSingletonsInstantiated() {
    relay = relays.getIfAvailable();
    resolved = true;
  }

  @Override
  public void wakeUp() {
    OutboxRelay target = resolved ? relay : lookUp();
    if (target != null) {
      target.wakeUp();
    }
  }

  /** Before the context is fully built: look it up each time. */
  private OutboxRelay lookUp() {
    try {
      return relays.getIfAvailable();
    } catch (BeansException e) {
      // The context is closing or not built yet; a relay that is not running needs no wake-up.
      return null;
    }
  }
}
