package dev.once.spring;

import dev.once.outbox.RetryPolicy;
import dev.once.spring.OnceProperties.Relay;
import dev.once.spring.OnceProperties.Retry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The retry policies {@code once.outbox.relay.retry} and {@code once.outbox.relay.types} describe:
 * each field a policy leaves unset falls back to {@code once.outbox.relay.retry}'s, and those to
 * once-core's {@link RetryPolicy#DEFAULT}. The values were validated when the properties were bound
 * ({@link OnceProperties}); {@link RetryPolicy}'s constructor checks them again.
 */
final class OutboxSettings {
  static final String RELAY = "once.outbox.relay.";

  private OutboxSettings() {}

  /** The default policy, from {@code once.outbox.relay.retry}. */
  static RetryPolicy defaultPolicy(Relay relay) {
    return merged(relay.retry(), RetryPolicy.DEFAULT);
  }

  /** The policy of each type under {@code once.outbox.relay.types}, over the default. */
  static Map<String, RetryPolicy> typePolicies(Relay relay) {
    RetryPolicy fallback = defaultPolicy(relay);
    Map<String, RetryPolicy> policies = new LinkedHashMap<>();
    relay.types().forEach((type, retry) -> policies.put(type, merged(retry, fallback)));
    return policies;
  }

  /** Every policy, keyed by the property prefix that defines it. */
  static Map<String, RetryPolicy> policies(Relay relay) {
    Map<String, RetryPolicy> all = new LinkedHashMap<>();
    all.put(RELAY + "retry", defaultPolicy(relay));
    typePolicies(relay).forEach((type, policy) -> all.put(RELAY + "types[" + type + "]", policy));
    return all;
  }

  /** {@code retry}'s fields, each unset one taken from {@code fallback}. */
  static RetryPolicy merged(Retry retry, RetryPolicy fallback) {
    int maxAttempts = retry.maxAttempts() != null ? retry.maxAttempts() : fallback.maxAttempts();
    Duration initialDelay =
        retry.initialDelay() != null ? retry.initialDelay() : fallback.initialDelay();
    double multiplier = retry.multiplier() != null ? retry.multiplier() : fallback.multiplier();
    Duration maxDelay = retry.maxDelay() != null ? retry.maxDelay() : fallback.maxDelay();
    double jitter = retry.jitter() != null ? retry.jitter() : fallback.jitter();
    return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitter);
  }
}
