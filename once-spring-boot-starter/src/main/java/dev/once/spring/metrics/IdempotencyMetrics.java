package dev.once.spring.metrics;

/**
 * Hook that learns how each idempotent request ended. Every method has a no-op default, so an
 * implementation overrides only what it needs; it is called on the request thread and must be fast
 * and thread-safe. With Micrometer on the classpath and a {@code MeterRegistry} bean, the starter
 * counts outcomes as {@code once.idempotency.requests{outcome=...}}.
 */
public interface IdempotencyMetrics {

  /** How an idempotent request ended. */
  enum Outcome {
    /** The handler ran and its answer was committed with the key (2xx or a stored 4xx). */
    EXECUTED,
    /** A completed key with the same fingerprint: the stored answer was sent. */
    REPLAYED,
    /** A completed key with a different fingerprint: 422. */
    KEY_REUSED,
    /** The key was held by a request in flight: 409. */
    IN_USE,
    /** The handler ran but its answer is not stored (5xx, exception, ...): all rolled back. */
    ROLLED_BACK,
    /** Refused before any lookup: no client, bad key, body too large, malformed JSON. */
    REJECTED,
    /** The database failed; nothing was committed: 503. */
    UNAVAILABLE,
    /** Refused by a per-client cap before any lookup (once.idempotency.limits): 429. */
    LIMITED
  }

  /** A hook that records nothing. */
  IdempotencyMetrics NONE = new IdempotencyMetrics() {};

  /** Called once per idempotent request, when its outcome is known. */
  default void requestFinished(Outcome outcome) {}
}
