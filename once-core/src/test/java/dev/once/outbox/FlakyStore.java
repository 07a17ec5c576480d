package dev.once.outbox;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that fails its first {@code failingClaims} claims as a database outage would (SQLSTATE
 * 08006), and counts the claims it answers, for tests of the relay's loop.
 */
final class FlakyStore extends DelegatingStore {
  private final AtomicInteger failuresLeft;
  final CountDownLatch firstClaimAnswered = new CountDownLatch(1);
  final AtomicInteger claims = new AtomicInteger();

  FlakyStore(OutboxStore store, int failingClaims) {
    super(store);
    this.failuresLeft = new AtomicInteger(failingClaims);
  }

  @Override
  public List<OutboxRecord> claim(UUID claimId, List<String> types, int limit, Duration lease) {
    claims.incrementAndGet();
    if (failuresLeft.getAndDecrement() > 0) {
      throw new OutboxException(
          "Could not claim outbox rows.", new SQLException("connection lost", "08006"));
    }
    List<OutboxRecord> rows = store.claim(claimId, types, limit, lease);
    firstClaimAnswered.countDown();
    return rows;
  }
}
