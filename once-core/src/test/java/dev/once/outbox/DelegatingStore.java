package dev.once.outbox;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An {@link OutboxStore} that passes every call on; tests override what they break. */
class DelegatingStore implements OutboxStore {
  final OutboxStore store;

  DelegatingStore(OutboxStore store) {
    this.store = store;
  }

  @Override
  public List<OutboxRecord> claim(
      UUID claimId, List<String> types, int limit, Instant now, Instant leaseUntil) {
    return store.claim(claimId, types, limit, now, leaseUntil);
  }

  @Override
  public OutboxEntry append(Connection tx, UUID messageId, OutboxMessage message, Instant now) {
    return store.append(tx, messageId, message, now);
  }

  @Override
  public boolean complete(long id, UUID claimId, Instant now, boolean keep) {
    return store.complete(id, claimId, now, keep);
  }

  @Override
  public boolean complete(
      Connection tx, long id, UUID claimId, Instant now, boolean keep, boolean durable) {
    return store.complete(tx, id, claimId, now, keep, durable);
  }

  @Override
  public int renew(long[] ids, UUID[] claimIds, Instant leaseUntil) {
    return store.renew(ids, claimIds, leaseUntil);
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
