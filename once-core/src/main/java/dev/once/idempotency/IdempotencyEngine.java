package dev.once.idempotency;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;

/**
 * The rules of the HTTP idempotency contract, applied inside the caller's database transaction.
 *
 * <p>Use it in one transaction per request:
 *
 * <pre>{@code
 * connection.setAutoCommit(false);
 * ClaimResult claim = engine.claim(connection, scope, fingerprint);
 * if (claim instanceof ClaimResult.Acquired acquired) {
 *   Response r = handler.handle(connection);              // business writes, same connection
 *   if (!engine.isStorable(r.status())) {
 *     connection.rollback();                              // nothing happened; the key is free
 *   } else if (r.status() >= 400) {
 *     connection.rollback();                              // a refusal keeps none of its writes,
 *     storeInANewTransaction(scope, fingerprint, r);      // only its answer: claim + complete again
 *   } else {
 *     engine.completeAndCommit(connection, acquired, stored(r)); // effect + answer, atomically,
 *                                                         // one round trip (or complete + commit);
 *                                                         // KeyTakenException: roll back
 *   }
 * } else {
 *   connection.rollback();   // Replay: send replay.response(); Mismatch: 422; InUse: 409
 * }
 * }</pre>
 *
 * <p>The claim writes nothing: the transaction holds the key with a lock until it ends, and {@link
 * #complete} writes the key's one row, with its answer. So a rollback, a crash or a lost connection
 * at any instant leaves no trace of the request and never a key stuck in use. Committing without
 * {@link #complete} records no answer (the key is free again and a retry executes anew): always
 * complete or roll back.
 *
 * <p>Guarantees, given that the claim, the business writes and {@link #complete} share one
 * transaction: a key takes effect at most once per scope (a second execution can only commit by
 * writing the key's row, which its unique index allows once); a concurrent duplicate gets {@link
 * ClaimResult.InUse} at once instead of waiting on a lock; a retry of a completed key is answered
 * from the stored row without executing. Implementations are thread-safe and hold no per-request
 * state.
 */
public interface IdempotencyEngine {

  /** Default time a completed key is kept: 24 hours. */
  Duration DEFAULT_RETENTION = Duration.ofHours(24);

  /**
   * Default lease of a claimed key: the longest its transaction may last from the claim (PostgreSQL
   * 17 and later), sit idle between statements, or run one statement, before the database ends it
   * (or cancels the statement) and frees the key.
   */
  Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /** Shortest retention, retry-after and lease the builder accepts, in seconds. */
  long MIN_SECONDS = 1;

  /** Longest lease PostgreSQL can enforce (its timeouts are int milliseconds), in seconds. */
  long MAX_LEASE_SECONDS = 24 * 86_400L;

  /** Longest lease PostgreSQL can enforce (its timeouts are int milliseconds): 24 days. */
  Duration MAX_LEASE = Duration.ofSeconds(MAX_LEASE_SECONDS);

  /** Fewest keys one {@link #purgeExpired} statement may delete. */
  int MIN_PURGE_BATCH_SIZE = 1;

  /** Most keys one {@link #purgeExpired} statement may delete. */
  int MAX_PURGE_BATCH_SIZE = 100_000;

  /** Default {@code Retry-After} suggested to a duplicate that arrives while the key is in use. */
  Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  /**
   * Claims the key for this request, or tells why not.
   *
   * @param tx a connection with auto-commit off; the claim lasts until its transaction ends
   * @throws IllegalStateException if {@code tx} is in auto-commit mode
   * @throws IdempotencyStoreException if the database fails
   */
  ClaimResult claim(Connection tx, IdempotencyScope scope, Fingerprint fingerprint);

  /**
   * Stores the answer of a claimed key, in the same transaction as the claim: the key's only write.
   *
   * @throws IllegalArgumentException if the response status is not storable
   * @throws KeyTakenException if the key is no longer this transaction's: another request's answer
   *     was committed in the instant between this claim's read and its lock, or this claim's
   *     transaction had ended and another request holds the key. Roll back and claim again.
   * @throws IdempotencyStoreException if the database fails
   */
  void complete(Connection tx, ClaimResult.Acquired claim, StoredResponse response);

  /**
   * {@link #complete}, then commits {@code tx}, in one round trip to the database instead of two:
   * the answer and the commit travel in one message. Afterwards the transaction is over; a later
   * {@code commit()} of {@code tx} finds nothing to do.
   *
   * @throws IllegalArgumentException if the response status is not storable (nothing was sent)
   * @throws KeyTakenException as {@link #complete}; nothing was committed, roll back
   * @throws IdempotencyStoreException if the database fails, the commit included: roll back; the
   *     outcome of a commit whose answer was lost is unknown, and a retry with the same key either
   *     replays it or executes anew
   */
  void completeAndCommit(Connection tx, ClaimResult.Acquired claim, StoredResponse response);

  /**
   * Whether an answer with this status is stored and replayed: every 2xx, every 3xx but 304 (a
   * redirect after a state change, e.g. 303 See Other, is the handler's success answer), and the
   * handler's own 4xx except 401, 403, 405, 406, 408, 409, 413, 415, 425 and 429 (answers that
   * depend on timing, authentication, content negotiation or transport rather than on the request's
   * fingerprint). Never 1xx or 5xx.
   */
  boolean isStorable(int status);

  /**
   * Deletes one batch of keys whose retention has passed.
   *
   * @param connection any connection; in auto-commit mode the batch commits by itself
   * @return how many keys were deleted; fewer than {@code batchSize} means none are left
   */
  int purgeExpired(Connection connection, int batchSize);

  /** How long completed keys are kept. */
  Duration retention();

  /** The wait suggested to a request that finds its key in use. */
  Duration retryAfter();

  /** A builder with the defaults: 24 h retention, 1 s retry-after, 60 s lease. */
  static Builder builder(IdempotencyStore store) {
    return new Builder(store);
  }

  /** Builds an {@link IdempotencyEngine}; validates every setting when {@link #build()} runs. */
  final class Builder {
    private final IdempotencyStore store;
    private Duration retention = DEFAULT_RETENTION;
    private Duration retryAfter = DEFAULT_RETRY_AFTER;
    private Duration lease = DEFAULT_LEASE;

    private Builder(IdempotencyStore store) {
      if (store == null) {
        throw new IllegalArgumentException("store must not be null");
      }
      this.store = store;
    }

    /**
     * Ignored: claim, completion and expiry times are the database's clock, the one clock every
     * instance shares, so that an instance whose clock runs ahead never takes a live key for an
     * expired one.
     *
     * @deprecated the engine reads no application clock; remove the call
     */
    @Deprecated(forRemoval = true)
    public Builder clock(Clock clock) {
      return this;
    }

    /** How long a completed key is kept before it may be purged; at least one second. */
    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    /** The wait suggested to a duplicate that finds the key in use; at least one second. */
    public Builder retryAfter(Duration retryAfter) {
      this.retryAfter = retryAfter;
      return this;
    }

    /**
     * The longest a claiming transaction may last after its claim before the database ends it,
     * rolling it back and freeing the key; at least one second. On PostgreSQL 17 and later this
     * caps the whole transaction ({@code transaction_timeout}), however many statements it runs; on
     * older servers only its idle pauses ({@code idle_in_transaction_session_timeout}) and each
     * single statement ({@code statement_timeout}) are capped. A stricter value of any of these
     * settings already in force for the session, role or database is kept. This bounds how long a
     * hung request can keep its key in use even while its process lives; a dead process frees it as
     * soon as the database notices the broken connection.
     */
    public Builder lease(Duration lease) {
      this.lease = lease;
      return this;
    }

    public IdempotencyEngine build() {
      requireAtLeastOneSecond("retention", retention);
      requireAtLeastOneSecond("retryAfter", retryAfter);
      requireAtLeastOneSecond("lease", lease);
      if (lease.compareTo(MAX_LEASE) > 0) {
        // PostgreSQL's timeouts are int milliseconds.
        throw new IllegalArgumentException("lease must be at most " + MAX_LEASE + ", was " + lease);
      }
      return new DefaultIdempotencyEngine(store, retention, retryAfter, lease);
    }

    private static void requireAtLeastOneSecond(String name, Duration value) {
      if (value == null || value.compareTo(Duration.ofSeconds(MIN_SECONDS)) < 0) {
        throw new IllegalArgumentException(name + " must be at least 1 second, was " + value);
      }
    }
  }
}
