package dev.once.idempotency;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The rules of the HTTP idempotency contract, applied inside the caller's database transaction.
 *
 * <p>The whole request loop is one call, {@link #execute}: it claims the key, runs the handler in
 * the same transaction, stores its answer and commits, and returns what to answer:
 *
 * <pre>{@code
 * IdempotentOutcome outcome =
 *     engine.execute(dataSource, scope, fingerprint, connection -> {
 *       insertPayment(connection, payment);            // business writes, same transaction
 *       return HandlerAnswer.of(201, "application/json", "/payments/p1", body);
 *     });
 * if (outcome instanceof IdempotentOutcome.Executed executed) {
 *   send(executed.answer());                     // committed with its answer
 * } else if (outcome instanceof IdempotentOutcome.Refused refused) {
 *   send(refused.answer());                      // the 4xx stored, the handler's writes undone
 * } else if (outcome instanceof IdempotentOutcome.Replayed replayed) {
 *   sendReplay(replayed.answer());               // the stored answer, no execution
 * } else if (outcome instanceof IdempotentOutcome.NotStored notStored) {
 *   send(notStored.answer());                    // rolled back, the key free (5xx, ...)
 * } else if (outcome instanceof IdempotentOutcome.InUse inUse) {
 *   send409(inUse.retryAfter());
 * } else if (outcome instanceof IdempotentOutcome.Unavailable) {
 *   send503();                                   // retry with the same key
 * } else {
 *   send422or500(outcome);                       // KeyReused, TooLarge, RollbackOnly
 * }
 * }</pre>
 *
 * <p>{@link IdempotentTransactions} lets a framework's transaction manager run the transactions
 * instead of plain JDBC (Once's Spring Boot starter does, so that JPA or {@code JdbcTemplate}
 * writes join the key's transaction). The building blocks below ({@link #claim}, {@link #complete},
 * {@link #completeAndCommit}, {@link #isStorable}) are what the loop is made of, for callers that
 * need their own.
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

  /**
   * Runs one idempotent request: the loop of the HTTP idempotency contract, with every rule in one
   * place.
   *
   * <ol>
   *   <li>Begins a transaction and claims the key in it. A key that holds an answer, another
   *       request's key or one in flight ends here, its transaction rolled back at once: {@link
   *       IdempotentOutcome.Replayed}, {@link IdempotentOutcome.KeyReused}, {@link
   *       IdempotentOutcome.InUse} (without waiting on a lock), the handler not run.
   *   <li>Runs {@code handler} in that transaction. An exception rolls everything back (the key
   *       stays free) and is thrown out of this method as it is.
   *   <li>A success (2xx, 3xx but 304) no larger than {@link IdempotentRequest#maxAnswerBytes()} is
   *       stored with the key and committed with the handler's writes, in one transaction (in one
   *       round trip with the {@code COMMIT} when the transactions allow it): {@link
   *       IdempotentOutcome.Executed}. A transaction marked rollback-only is rolled back instead
   *       ({@link IdempotentOutcome.RollbackOnly}); a larger success too ({@link
   *       IdempotentOutcome.TooLarge}).
   *   <li>A storable 4xx rolls back all of the handler's writes; its answer is stored under a new
   *       claim in a second transaction: {@link IdempotentOutcome.Refused}. Should another request
   *       take the key in the instant it is free, the outcome is what a retry would get: that
   *       request's answer, a mismatch, or in use.
   *   <li>An answer that is not stored (see {@link IdempotentOutcome.NotStored}) rolls back and
   *       leaves the key free.
   *   <li>If the answer cannot be written because another request's answer for the key was
   *       committed meanwhile ({@link KeyTakenException}), everything rolls back and the outcome is
   *       what the key holds, read in a new transaction: usually {@link
   *       IdempotentOutcome.Replayed}; should the key be free again, {@link
   *       IdempotentOutcome.InUse}.
   *   <li>Any failure of the database ends as {@link IdempotentOutcome.Unavailable}, rolled back,
   *       and is logged (a transient one, by {@link dev.once.failures.TransientFailures}, at most
   *       once per condition and ten seconds, without a stack trace).
   * </ol>
   *
   * Every transaction is over when this returns: the caller answers afterwards, so a client never
   * gets an answer that is not durable. Before it answers, the caller knows from {@link
   * IdempotentOutcome#ranHandler()} whether the request started a new key.
   *
   * @param <E> what the handler may throw
   * @throws E what the handler threw, after everything was rolled back
   */
  default <E extends Exception> IdempotentOutcome execute(
      IdempotentTransactions transactions, IdempotentRequest request, IdempotentHandler<E> handler)
      throws E {
    if (transactions == null || request == null || handler == null) {
      throw new IllegalArgumentException("transactions, request and handler must not be null");
    }
    return new KeyedRequest(this, transactions, request).run(handler);
  }

  /**
   * {@link #execute(IdempotentTransactions, IdempotentRequest, IdempotentHandler)} on plain JDBC
   * transactions of {@code dataSource} ({@link IdempotentTransactions#jdbc}): the handler gets the
   * transaction's connection, with auto-commit off.
   */
  default <E extends Exception> IdempotentOutcome execute(
      DataSource dataSource, IdempotentRequest request, IdempotentHandler<E> handler) throws E {
    return execute(IdempotentTransactions.jdbc(dataSource), request, handler);
  }

  /**
   * {@link #execute(DataSource, IdempotentRequest, IdempotentHandler)} with the engine's retention
   * and {@link IdempotencyLimits#DEFAULT_MAX_ANSWER_BYTES}.
   */
  default <E extends Exception> IdempotentOutcome execute(
      DataSource dataSource,
      IdempotencyScope scope,
      Fingerprint fingerprint,
      IdempotentHandler<E> handler)
      throws E {
    return execute(dataSource, IdempotentRequest.of(scope, fingerprint), handler);
  }

  /**
   * Claims the key for this request, or tells why not.
   *
   * <p>It also bounds how long the rest of the transaction waits for any one answer of the
   * database: the connection's network timeout becomes at most the lease plus {@link
   * IdempotencyLimits#NETWORK_GRACE} (a stricter one is kept). The lease ends the transaction on
   * the server, but a server that stalls or that the network cuts off cannot; with the bound, a
   * read that gets no answer fails with an I/O error (SQLSTATE {@code 08006}, and the request is
   * {@link IdempotentOutcome.Unavailable}) instead of waiting for the operating system to give up
   * on the socket. {@link #execute}'s transactions set the timeout back when they end; a caller
   * with transactions of its own must, unless its pool does (HikariCP resets it).
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
  default void complete(Connection tx, ClaimResult.Acquired claim, StoredResponse response) {
    complete(tx, claim, response, retention());
  }

  /**
   * {@link #complete}, the key kept for {@code retention} after its completion instead of the
   * engine's {@link #retention()}.
   *
   * @throws IllegalArgumentException if {@code retention} is shorter than one second ({@link
   *     IdempotencyLimits#checkRetention})
   */
  void complete(
      Connection tx, ClaimResult.Acquired claim, StoredResponse response, Duration retention);

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
  default void completeAndCommit(
      Connection tx, ClaimResult.Acquired claim, StoredResponse response) {
    completeAndCommit(tx, claim, response, retention());
  }

  /**
   * {@link #completeAndCommit}, the key kept for {@code retention} after its completion instead of
   * the engine's {@link #retention()}.
   *
   * @throws IllegalArgumentException if {@code retention} is shorter than one second ({@link
   *     IdempotencyLimits#checkRetention})
   */
  void completeAndCommit(
      Connection tx, ClaimResult.Acquired claim, StoredResponse response, Duration retention);

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

  /**
   * A builder with the defaults: 24 h retention, 1 s retry-after, 60 s lease ({@link
   * IdempotencyLimits}).
   */
  static Builder builder(IdempotencyStore store) {
    return new Builder(store);
  }

  /** Builds an {@link IdempotencyEngine}; validates every setting when {@link #build()} runs. */
  final class Builder {
    private final IdempotencyStore store;
    private Duration retention = IdempotencyLimits.DEFAULT_RETENTION;
    private Duration retryAfter = IdempotencyLimits.DEFAULT_RETRY_AFTER;
    private Duration lease = IdempotencyLimits.DEFAULT_LEASE;

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
      IdempotencyLimits.checkRetention(retention);
      requireAtLeastOneSecond("retryAfter", retryAfter);
      requireAtLeastOneSecond("lease", lease);
      if (lease.compareTo(IdempotencyLimits.MAX_LEASE) > 0) {
        // PostgreSQL's timeouts are int milliseconds.
        throw new IllegalArgumentException(
            "lease must be at most " + IdempotencyLimits.MAX_LEASE + ", was " + lease);
      }
      return new DefaultIdempotencyEngine(store, retention, retryAfter, lease);
    }

    private static void requireAtLeastOneSecond(String name, Duration value) {
      if (value == null || value.compareTo(Duration.ofSeconds(IdempotencyLimits.MIN_SECONDS)) < 0) {
        throw new IllegalArgumentException(name + " must be at least 1 second, was " + value);
      }
    }
  }
}
