package dev.once.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Persistence of idempotency keys. A store only reads, locks, inserts-or-replaces-if-expired and
 * deletes; every rule (fingerprints, expiry, state transitions) lives in {@link IdempotencyEngine}.
 *
 * <p>Every time a store writes or compares (claim, completion and expiry times, the purge's
 * cut-off) is the database's clock, so that instances whose clocks disagree still agree on which
 * keys are live.
 *
 * <p>Every method runs on the caller's connection and inside the caller's transaction; a store
 * never commits, rolls back or changes auto-commit.
 */
public interface IdempotencyStore {

  /**
   * The claim, in one round trip, writing nothing: reads the committed key of the scope, and
   * returns an answer that is still live at {@code now} without taking any lock, so concurrent
   * retries of a completed key never get in each other's way. "Live" is judged by the database's
   * clock, never the caller's (see {@link Attempt.Found#now()}). Otherwise (no key, or one past its
   * retention) it tries to take the scope's lock, held until the caller's transaction ends, without
   * waiting; the lock is what marks the key in flight, and the key's row is written once, by {@link
   * #complete}, with its answer. Only with the lock does it read the key again (so a key committed
   * by the request that just released the lock is seen) and bound the caller's transaction by
   * {@code lease}, counted from the claim: a transaction idle for longer is ended by the database
   * (rolled back, lock released), a statement running for longer is cancelled, and on PostgreSQL 17
   * and later a transaction that lasts longer as a whole is ended too, however busy it is. So a
   * hung or endless request can never keep its key in use for longer. A stricter limit already in
   * force for the session is kept, never loosened.
   */
  Attempt claim(Connection tx, IdempotencyScope scope, Duration lease) throws SQLException;

  /** What {@link #claim} did. */
  sealed interface Attempt permits Attempt.Found, Attempt.Locked, Attempt.LockedOut {
    /**
     * The key exists (committed).
     *
     * @param locked whether this transaction holds the scope's lock: only ever for a key that had
     *     expired at the claim's {@code now} (then it may be replaced), or for a key that was
     *     committed while the lock was being taken (then it is answered as it is)
     * @param now the claim's time by the database's clock, against which the key's expiry is judged
     */
    record Found(StoredKey key, boolean locked, Instant now) implements Attempt {}

    /**
     * No committed key; this transaction now holds the scope's lock.
     *
     * @param now the claim's time by the database's clock
     */
    record Locked(Instant now) implements Attempt {}

    /** Another transaction holds the lock: a request with this key is in flight. */
    record LockedOut() implements Attempt {}
  }

  /**
   * A key's one write: the answer of the request that claimed it. The completion time is the
   * database's clock when the answer is written, and the key expires {@code retention} after it.
   *
   * @param scope client and key
   * @param fingerprint the request's fingerprint
   * @param claimedAt when the claim was made, by the database's clock (as the claim returned it); a
   *     row that had expired by then is replaced
   * @param response the answer
   * @param retention how long after its completion the key is kept
   */
  record Completion(
      IdempotencyScope scope,
      Fingerprint fingerprint,
      Instant claimedAt,
      StoredResponse response,
      Duration retention) {}

  /**
   * Writes the key, completed with its answer, while the caller's transaction still holds the
   * scope's lock. A row of the scope that had expired by the claim is replaced.
   *
   * @return {@code false} if nothing was written: another request's answer for the key is there
   *     (committed where the claim could not see it), or another transaction holds the scope's lock
   *     (this transaction's claim ended, so the key is someone else's now). The caller must then
   *     roll back.
   */
  boolean complete(Connection tx, Completion completion) throws SQLException;

  /**
   * {@link #complete}, then commits the caller's transaction, in one round trip: the only method of
   * a store that ends a transaction, for callers that commit right after storing the answer.
   *
   * @return {@code false} if nothing was written, for the reasons {@link #complete} gives; the
   *     transaction is then aborted, nothing is committed, and the caller must roll back
   */
  boolean completeAndCommit(Connection tx, Completion completion) throws SQLException;

  /**
   * Deletes up to {@code limit} completed keys whose expiry is at or before the database's clock,
   * skipping rows other transactions hold.
   *
   * @return how many were deleted
   */
  int deleteExpired(Connection connection, int limit) throws SQLException;
}
