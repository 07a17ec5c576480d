package dev.once.spring.outbox;

/**
 * Wakes the outbox relay, if the application runs one, so that a committed row is delivered at once
 * instead of at the next poll. Must be cheap and must not throw; thread-safe.
 */
@FunctionalInterface
interface RelayWakeUp {

  /** Nothing to wake: no relay runs in this application. */
  RelayWakeUp NONE = () -> {};

  void wakeUp();
}
