package dev.once.outbox;

import java.time.Duration;

/** Validation of {@link OutboxRelay.Builder}; messages name the setting and the bad value. */
final class RelaySettings {
  private RelaySettings() {}

  static void validate(OutboxRelay.Builder b) {
    if (b.handlers.isEmpty()) {
      throw new IllegalArgumentException("an outbox relay needs at least one handler");
    }
    range("workers", b.workers, 1, 1000);
    range("batchSize", b.batchSize, 1, 10_000);
    range("purgeBatchSize", b.purgeBatchSize, 1, 100_000);
    between("lease", b.lease, Duration.ofSeconds(1), Duration.ofHours(24));
    between("pollInterval", b.pollInterval, Duration.ofMillis(10), Duration.ofHours(1));
    between("handlerTimeout", b.handlerTimeout, Duration.ofMillis(10), Duration.ofHours(24));
    b.timeouts.forEach(
        (type, timeout) ->
            between(
                "handlerTimeout of " + type, timeout, Duration.ofMillis(10), Duration.ofHours(24)));
    between("claimCoalescing", b.claimCoalescing, Duration.ZERO, Duration.ofSeconds(1));
    between("deliveredRetention", b.deliveredRetention, Duration.ZERO, Duration.ofDays(365));
    between("shutdownTimeout", b.shutdownTimeout, Duration.ZERO, Duration.ofHours(1));
  }

  private static void range(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be " + min + " to " + max + ", but was " + value);
    }
  }

  private static void between(String name, Duration value, Duration min, Duration max) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          name + " must be " + min + " to " + max + ", but was " + value);
    }
  }
}
