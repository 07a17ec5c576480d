package dev.once.outbox;

import static dev.once.outbox.RelayLimits.*;

import java.time.Duration;

/**
 * Validation of {@link OutboxRelay.Builder} against {@link RelayLimits}; messages name the setting
 * and the bad value.
 */
final class RelaySettings {
  private RelaySettings() {}

  static void validate(OutboxRelay.Builder b) {
    if (b.handlers.isEmpty()) {
      throw new IllegalArgumentException("an outbox relay needs at least one handler");
    }
    for (String type : b.pausedAtStart) {
      if (type == null || type.isBlank() || type.length() > OutboxAdmin.MAX_TYPE_LENGTH) {
        throw new IllegalArgumentException(
            "pausedAtStart must name types of 1 to "
                + OutboxAdmin.MAX_TYPE_LENGTH
                + " characters, but had "
                + (type == null ? "null" : "'" + type + "'"));
      }
    }
    range("workers", b.workers, MIN_WORKERS, MAX_WORKERS);
    range("batchSize", b.batchSize, MIN_BATCH_SIZE, MAX_BATCH_SIZE);
    range("handlerBatchSize", b.handlerBatchSize, MIN_BATCH_SIZE, MAX_BATCH_SIZE);
    range("purgeBatchSize", b.purgeBatchSize, MIN_PURGE_BATCH_SIZE, MAX_PURGE_BATCH_SIZE);
    between("lease", b.lease, MIN_LEASE_MILLIS, MAX_LEASE_MILLIS);
    between("pollInterval", b.pollInterval, MIN_POLL_INTERVAL_MILLIS, MAX_POLL_INTERVAL_MILLIS);
    between(
        "handlerTimeout", b.handlerTimeout, MIN_HANDLER_TIMEOUT_MILLIS, MAX_HANDLER_TIMEOUT_MILLIS);
    b.timeouts.forEach(
        (type, timeout) ->
            between(
                "handlerTimeout of " + type,
                timeout,
                MIN_HANDLER_TIMEOUT_MILLIS,
                MAX_HANDLER_TIMEOUT_MILLIS));
    between(
        "claimCoalescing",
        b.claimCoalescing,
        MIN_CLAIM_COALESCING_MILLIS,
        MAX_CLAIM_COALESCING_MILLIS);
    between(
        "deliveredRetention",
        b.deliveredRetention,
        MIN_DELIVERED_RETENTION_MILLIS,
        MAX_DELIVERED_RETENTION_MILLIS);
    between(
        "shutdownTimeout",
        b.shutdownTimeout,
        MIN_SHUTDOWN_TIMEOUT_MILLIS,
        MAX_SHUTDOWN_TIMEOUT_MILLIS);
  }

  private static void range(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be " + min + " to " + max + ", but was " + value);
    }
  }

  private static void between(String name, Duration value, long minMillis, long maxMillis) {
    Duration min = Duration.ofMillis(minMillis);
    Duration max = Duration.ofMillis(maxMillis);
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          name + " must be " + min + " to " + max + ", but was " + value);
    }
  }
}
