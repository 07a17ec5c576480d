package dev.once.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link IdempotencyEngine#claim} decided for one request. Exactly one of four typed outcomes,
 * never {@code null}.
 */
public sealed interface ClaimResult
    permits ClaimResult.Acquired, ClaimResult.Replay, ClaimResult.Mismatch, ClaimResult.InUse {

  /**
   * The key is new (or its previous use expired): this transaction now holds it and the request
   * must execute. Complete it with {@link IdempotencyEngine#complete} in the same transaction, or
   * roll the transaction back to free the key. Nothing is written until {@code complete}: the key
   * is held by a lock of the transaction, so committing without {@code complete} records no answer
   * and frees the key, and a retry would execute again.
   *
   * @param claimedAt when the claim was made, by the database's clock; an expired answer is
   *     replaced only if it had expired by then
   */
  record Acquired(IdempotencyScope scope, Fingerprint fingerprint, Instant claimedAt)
      implements ClaimResult {
    public Acquired {
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(fingerprint, "fingerprint");
      Objects.requireNonNull(claimedAt, "claimedAt");
    }
  }

  /** The key completed earlier with the same fingerprint: answer with the stored response. */
  record Replay(StoredResponse response) implements ClaimResult {
    public Replay {
      Objects.requireNonNull(response, "response");
    }
  }

  /** The key completed earlier for a different request: refuse, execute nothing. */
  record Mismatch(IdempotencyScope scope) implements ClaimResult {
    public Mismatch {
      Objects.requireNonNull(scope, "scope");
    }
  }

  /**
   * Another transaction holds the key right now: answer at once and let the client retry after
   * {@code retryAfter}. Nothing waits on a database lock.
   */
  record InUse(IdempotencyScope scope, Duration retryAfter) implements ClaimResult {
    public InUse {
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(retryAfter, "retryAfter");
    }
  }
}
