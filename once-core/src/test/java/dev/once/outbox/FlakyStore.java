package dev.once.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that fails its first {@code failingClaims} claims as a database outage would (SQLSTATE
 * 08006), and counts the claims it answers, for tests of the relay's loop.
 */
final class FlakyStore implements OutboxStore {
  private final OutboxStore store;
  private final AtomicInteger failuresLeft;
  final CountDownLatch firstClaimAnswered = new CountDownLatch(1);
  final AtomicInteger claims = new AtomicInteger();

  FlakyStore(OutboxStore store, int failingClaims) {
    this.store = store;
    this.failuresLeft = new AtomicInteger(failingClaims);
  }

  @Override
  public List<OutboxRecord> claim(
      UUID claimId, List<String> types, int limit, Instant now, Instant leaseUntil) {
    claims.incrementAndGet();
    if (failuresLeft.getAndDecrement() > 0) {
      throw new OutboxException(
          "Could not claim outbox rows.", new SQLException("connection lost", "08006"));
    }
    List<OutboxRecord> rows = store.claim(claimId, types, limit, now, leaseUntil);
    firstClaimAnswered.countDown();
    return rows;
  }

  @Override
  public OutboxEntry append(Connection tx, UUID messageId, OutboxMessage message, Instant now) {
    return store.append(tx, messageId, message, now);
  }

  @Override
  public boolean complete(long id, UUID claimId, Instant now) {
    return store.complete(id, claimId, now);
  }

  @Override
  public boolean retryLater(long id, UUID claimId, Instant nextAttemptAt, String error) {
    return store.retryLater(id, claimId, nextAttemptAt, error);
  }

  @Override
  public boolean bury(long id, UUID claimId, String error, Instant now) {
    return store.bury(id, claimId, error, now);
  }

  @Override
  public boolean requeue(long id, Instant now) {
    return store.requeue(id, now);
  }

  @Override
  public List<DeadMessage> dead(long afterId, int limit) {
    return store.dead(afterId, limit);
  }

  @Override
  public int purgeDelivered(Instant deliveredBefore, int limit) {
    return store.purgeDelivered(deliveredBefore, limit);
  }

  @Override
  public OutboxStats stats(Instant now) {
    return store.stats(now);
  }

  @Override
  public Duration oldestClaimableAge(Instant now) {
    return store.oldestClaimableAge(now);
  }
}
