package dev.once.spring;

import static dev.once.spring.OnceProperties.bad;

import dev.once.outbox.RetryPolicy;
import dev.once.spring.OnceProperties.Inbox;
import dev.once.spring.OnceProperties.LoadShedding;
import dev.once.spring.OnceProperties.Relay;
import dev.once.spring.OnceProperties.Retry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Validation of {@code once.outbox.relay.*}, {@code once.outbox.load-shedding.*} and {@code
 * once.inbox.*}, and the retry policies they describe. Every message names the property and its bad
 * value.
 */
final class OutboxSettings {
  static final String RELAY = "once.outbox.relay.";
  static final String INBOX = "once.inbox.";
  static final String LOAD_SHEDDING = "once.outbox.load-shedding.";

  private OutboxSettings() {}

  static void validate(OnceProperties properties) {
    Relay r = properties.getOutbox().getRelay();
    intRange(RELAY + "workers", r.getWorkers(), 1, 1000);
    intRange(RELAY + "batch-size", r.getBatchSize(), 1, 10_000);
    intRange(RELAY + "pool-size", r.getPoolSize(), 0, 100);
    range(
        RELAY + "health-max-due-age",
        r.getHealthMaxDueAge(),
        Duration.ofSeconds(1),
        Duration.ofDays(365));
    range(RELAY + "lease", r.getLease(), Duration.ofSeconds(1), Duration.ofHours(24));
    range(RELAY + "poll-interval", r.getPollInterval(), Duration.ofMillis(10), Duration.ofHours(1));
    range(
        RELAY + "handler-timeout",
        r.getHandlerTimeout(),
        Duration.ofMillis(10),
        Duration.ofHours(24));
    range(RELAY + "claim-coalescing", r.getClaimCoalescing(), Duration.ZERO, Duration.ofSeconds(1));
    if (r.getRetry().getHandlerTimeout() != null) {
      throw bad(
          RELAY + "retry.handler-timeout",
          r.getRetry().getHandlerTimeout(),
          "is not a retry setting: use " + RELAY + "handler-timeout");
    }
    r.getTypes()
        .forEach(
            (type, retry) -> {
              if (retry.getHandlerTimeout() != null) {
                range(
                    RELAY + "types[" + type + "].handler-timeout",
                    retry.getHandlerTimeout(),
                    Duration.ofMillis(10),
                    Duration.ofHours(24));
              }
            });
    range(
        RELAY + "delivered-retention",
        r.getDeliveredRetention(),
        Duration.ZERO,
        Duration.ofDays(365));
    intRange(RELAY + "purge-batch-size", r.getPurgeBatchSize(), 1, 100_000);
    range(RELAY + "shutdown-timeout", r.getShutdownTimeout(), Duration.ZERO, Duration.ofHours(1));
    Map<String, RetryPolicy> policies = policies(r);

    LoadShedding shedding = properties.getOutbox().getLoadShedding();
    range(
        LOAD_SHEDDING + "max-due-age",
        shedding.getMaxDueAge(),
        Duration.ofMillis(100),
        Duration.ofHours(24));
    range(
        LOAD_SHEDDING + "sample-interval",
        shedding.getSampleInterval(),
        Duration.ofMillis(10),
        Duration.ofMinutes(1));
    if (shedding.getSampleInterval().compareTo(shedding.getMaxDueAge()) > 0) {
      throw bad(
          LOAD_SHEDDING + "sample-interval",
          shedding.getSampleInterval(),
          "must be at most max-due-age " + shedding.getMaxDueAge());
    }

    Inbox i = properties.getInbox();
    range(INBOX + "retention", i.getRetention(), Duration.ofSeconds(1), Duration.ofDays(3650));
    range(
        INBOX + "purge.interval",
        i.getPurge().getInterval(),
        Duration.ofSeconds(1),
        Duration.ofDays(1));
    intRange(INBOX + "purge.batch-size", i.getPurge().getBatchSize(), 1, 100_000);
    range(
        INBOX + "purge.max-run-time",
        i.getPurge().getMaxRunTime(),
        Duration.ofMillis(100),
        Duration.ofHours(1));
    for (Map.Entry<String, RetryPolicy> policy : policies.entrySet()) {
      Duration span = policy.getValue().longestRetrySpan();
      if (i.getRetention().compareTo(span) <= 0) {
        throw new IllegalArgumentException(
            "Invalid configuration: "
                + INBOX
                + "retention ("
                + i.getRetention()
                + ") must be longer than the longest retry span of "
                + policy.getKey()
                + " ("
                + span
                + "), or a message retried after its inbox record was purged would be applied"
                + " twice.");
      }
    }
  }

  /** The default policy, from {@code once.outbox.relay.retry}. */
  static RetryPolicy defaultPolicy(Relay relay) {
    return policy(RELAY + "retry", relay.getRetry(), null);
  }

  /** The policy of each type under {@code once.outbox.relay.types}, over the default. */
  static Map<String, RetryPolicy> typePolicies(Relay relay) {
    RetryPolicy fallback = defaultPolicy(relay);
    Map<String, RetryPolicy> policies = new LinkedHashMap<>();
    relay
        .getTypes()
        .forEach(
            (type, retry) ->
                policies.put(type, policy(RELAY + "types[" + type + "]", retry, fallback)));
    return policies;
  }

  /** Every policy, keyed by the property prefix that defines it. */
  private static Map<String, RetryPolicy> policies(Relay relay) {
    Map<String, RetryPolicy> all = new LinkedHashMap<>();
    all.put(RELAY + "retry", defaultPolicy(relay));
    typePolicies(relay).forEach((type, policy) -> all.put(RELAY + "types[" + type + "]", policy));
    return all;
  }

  private static RetryPolicy policy(String prefix, Retry retry, RetryPolicy fallback) {
    int maxAttempts =
        retry.getMaxAttempts() != null ? retry.getMaxAttempts() : required(fallback).maxAttempts();
    Duration initialDelay =
        retry.getInitialDelay() != null
            ? retry.getInitialDelay()
            : required(fallback).initialDelay();
    double multiplier =
        retry.getMultiplier() != null ? retry.getMultiplier() : required(fallback).multiplier();
    Duration maxDelay =
        retry.getMaxDelay() != null ? retry.getMaxDelay() : required(fallback).maxDelay();
    double jitter = retry.getJitter() != null ? retry.getJitter() : required(fallback).jitter();
    intRange(prefix + ".max-attempts", maxAttempts, 1, 1000);
    range(prefix + ".initial-delay", initialDelay, Duration.ofMillis(1), Duration.ofDays(365));
    if (!(multiplier >= 1.0 && multiplier <= 10.0)) {
      throw bad(prefix + ".multiplier", multiplier, "must be 1.0 to 10.0");
    }
    if (maxDelay == null || maxDelay.compareTo(initialDelay) < 0) {
      throw bad(
          prefix + ".max-delay", maxDelay, "must be at least the initial-delay " + initialDelay);
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw bad(prefix + ".jitter", jitter, "must be 0.0 to 1.0");
    }
    return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitter);
  }

  private static RetryPolicy required(RetryPolicy fallback) {
    if (fallback == null) {
      // once.outbox.relay.retry starts from RetryPolicy.DEFAULT; a null here means it was unset.
      return RetryPolicy.DEFAULT;
    }
    return fallback;
  }

  private static void intRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw bad(name, value, "must be " + min + " to " + max);
    }
  }

  private static void range(String name, Duration value, Duration min, Duration max) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw bad(name, value, "must be " + min + " to " + max);
    }
  }
}
