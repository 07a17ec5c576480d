package dev.once.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Persistence of idempotency keys. A store only locks, inserts-or-returns, compares-and-sets and
 * deletes; every rule (fingerprints, expiry, state transitions) lives in {@link IdempotencyEngine}.
 *
 * <p>Every method runs on the caller's connection and inside the caller's transaction; a store
 * never commits, rolls back or changes auto-commit.
 */
public interface IdempotencyStore {

  /**
   * The claim, in one round trip: reads the committed key of the scope; only if there is none,
   * tries to take the scope's lock (held until the caller's transaction ends) without waiting, and
   * if it got the lock inserts the key as {@link KeyState#IN_PROGRESS}. A key that exists is read
   * without any lock, so concurrent retries of a completed key never get in each other's way. The
   * same statement bounds the caller's transaction by {@code lease}, counted from the claim: a
   * transaction idle for longer is ended by the database (rolled back, lock released), a statement
   * running for longer is cancelled, and on PostgreSQL 17 and later a transaction that lasts longer
   * as a whole is ended too, however busy it is. So a hung or endless request can never keep its
   * key in use for longer. A stricter limit already in force for the session is kept, never
   * loosened.
   */
  Attempt claim(
      Connection tx, IdempotencyScope scope, Fingerprint fingerprint, Instant now, Duration lease)
      throws SQLException;

  /**
   * Tries to take a lock on the scope that lasts until the caller's transaction ends, without
   * waiting.
   *
   * @return {@code false} at once if another transaction holds it
   */
  boolean tryLock(Connection tx, IdempotencyScope scope) throws SQLException;

  /** What {@link #claim} did. */
  sealed interface Attempt permits Attempt.Found, Attempt.Inserted, Attempt.LockedOut {
    /** The key exists (committed); nothing was locked or inserted. */
    record Found(StoredKey key) implements Attempt {}

    /** No key existed; this transaction holds the scope's lock and inserted it in progress. */
    record Inserted() implements Attempt {}

    /** No committed key, and another transaction holds the lock: a request is in flight. */
    record LockedOut() implements Attempt {}
  }

  /**
   * Moves an expired completed key back to in progress for a new request (compare-and-set on the
   * expiry).
   *
   * @return whether the key was expired at {@code now} and is now claimed
   */
  boolean reclaimExpired(
      Connection tx, IdempotencyScope scope, Fingerprint fingerprint, Instant now)
      throws SQLException;

  /**
   * Stores the answer of an in-progress key (compare-and-set on the state).
   *
   * @return whether the key was in progress and is now completed
   */
  boolean complete(
      Connection tx,
      IdempotencyScope scope,
      StoredResponse response,
      Instant completedAt,
      Instant expiresAt)
      throws SQLException;

  /**
   * Deletes up to {@code limit} completed keys whose expiry is at or before {@code now}, skipping
   * rows other transactions hold.
   *
   * @return how many were deleted
   */
  int deleteExpired(Connection connection, Instant now, int limit) throws SQLException;
}
