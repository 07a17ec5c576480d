package dev.once.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * The engine's rules. It reads no clock of its own: every time it judges (a key's expiry, a claim's
 * time) comes from the database through the store, so instances whose clocks disagree still agree
 * on which keys are live and which may be purged.
 */
final class DefaultIdempotencyEngine implements IdempotencyEngine {
  private final IdempotencyStore store;
  private final Duration retention;
  private final Duration retryAfter;
  private final Duration lease;

  DefaultIdempotencyEngine(
      IdempotencyStore store, Duration retention, Duration retryAfter, Duration lease) {
    this.store = store;
    this.retention = retention;
    this.retryAfter = retryAfter;
    this.lease = lease;
  }

  @Override
  public ClaimResult claim(Connection tx, IdempotencyScope scope, Fingerprint fingerprint) {
    try {
      if (tx.getAutoCommit()) {
        throw new IllegalStateException(
            "claim must run inside a transaction: the connection is in auto-commit mode");
      }
      // The server ends the transaction after the lease, but only while it reaches the client: a
      // database that stops answering is bounded here, on the client's side.
      NetworkTimeouts.bound(tx, lease.plus(IdempotencyLimits.NETWORK_GRACE));
      // A committed key is read without locking, so retries of a completed request replay in
      // parallel. Only an unknown key takes the advisory lock, which whichever transaction has
      // the key in flight holds: a duplicate learns "in use" at once instead of blocking. Nothing
      // is written before the answer is known (complete).
      IdempotencyStore.Attempt attempt = store.claim(tx, scope, lease);
      if (attempt instanceof IdempotencyStore.Attempt.Found found) {
        return decide(found, fingerprint, found.now());
      }
      if (attempt instanceof IdempotencyStore.Attempt.Locked locked) {
        return new ClaimResult.Acquired(scope, fingerprint, locked.now());
      }
      return new ClaimResult.InUse(scope, retryAfter);
    } catch (SQLException e) {
      throw new IdempotencyStoreException("Could not claim an idempotency key.", e);
    }
  }

  private ClaimResult decide(
      IdempotencyStore.Attempt.Found found, Fingerprint fingerprint, Instant now) {
    StoredKey existing = found.key();
    IdempotencyScope scope = existing.scope();
    if (existing.state() == KeyState.IN_PROGRESS) {
      // Only reachable if some writer committed an unfinished key outside this protocol.
      return new ClaimResult.InUse(scope, retryAfter);
    }
    if (existing.isExpiredAt(now)) {
      // Past retention the key is forgotten, even if the purge has not run yet. Whoever holds the
      // lock may reclaim it (complete replaces the expired row); a concurrent reclaimer is a
      // request in flight.
      return found.locked()
          ? new ClaimResult.Acquired(scope, fingerprint, now)
          : new ClaimResult.InUse(scope, retryAfter);
    }
    if (!existing.fingerprint().equals(fingerprint)) {
      return new ClaimResult.Mismatch(scope);
    }
    return new ClaimResult.Replay(existing.response());
  }

  @Override
  public void complete(
      Connection tx, ClaimResult.Acquired claim, StoredResponse response, Duration retention) {
    store(tx, claim, response, retention, false);
  }

  @Override
  public void completeAndCommit(
      Connection tx, ClaimResult.Acquired claim, StoredResponse response, Duration retention) {
    store(tx, claim, response, retention, true);
  }

  private void store(
      Connection tx,
      ClaimResult.Acquired claim,
      StoredResponse response,
      Duration retention,
      boolean commit) {
    IdempotencyLimits.checkRetention(retention);
    if (!isStorable(response.status())) {
      throw new IllegalArgumentException(
          "status " + response.status() + " is not stored; roll the transaction back instead");
    }
    IdempotencyStore.Completion completion =
        new IdempotencyStore.Completion(
            claim.scope(), claim.fingerprint(), claim.claimedAt(), response, retention);
    boolean written;
    try {
      written = commit ? store.completeAndCommit(tx, completion) : store.complete(tx, completion);
    } catch (SQLException e) {
      throw new IdempotencyStoreException("Could not store the answer of an idempotency key.", e);
    }
    if (!written) {
      throw new KeyTakenException(claim.scope());
    }
  }

  @Override
  public boolean isStorable(int status) {
    if (status >= 200 && status <= 299) {
      return true;
    }
    if (status >= 300 && status <= 399) {
      // A redirect after a POST (303 See Other) is the handler's success answer; 304 belongs to
      // conditional reads and never answers a state change.
      return status != 304;
    }
    if (status < 400 || status > 499) {
      return false;
    }
    return switch (status) {
      case 401, 403, 405, 406, 408, 409, 413, 415, 425, 429 -> false;
      default -> true;
    };
  }

  @Override
  public int purgeExpired(Connection connection, int batchSize) {
    if (batchSize < IdempotencyLimits.MIN_PURGE_BATCH_SIZE
        || batchSize > IdempotencyLimits.MAX_PURGE_BATCH_SIZE) {
      throw new IllegalArgumentException(
          "batchSize must be "
              + IdempotencyLimits.MIN_PURGE_BATCH_SIZE
              + " to "
              + IdempotencyLimits.MAX_PURGE_BATCH_SIZE
              + ", was "
              + batchSize);
    }
    try {
      return store.deleteExpired(connection, batchSize);
    } catch (SQLException e) {
      throw new IdempotencyStoreException("Could not purge expired idempotency keys.", e);
    }
  }

  @Override
  public Duration retention() {
    return retention;
  }

  @Override
  public Duration retryAfter() {
    return retryAfter;
  }
}
