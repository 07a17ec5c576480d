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
  public List<OutboxRecord> claim(UUID claimId, List<String> types, int limit, Duration lease) {
    return store.claim(claimId, types, limit, lease);
  }

  @Override
  public OutboxEntry append(Connection tx, UUID messageId, OutboxMessage message) {
    return store.append(tx, messageId, message);
  }

  @Override
  public List<OutboxEntry> appendAll(
      Connection tx, List<UUID> messageIds, List<OutboxMessage> messages) {
    return store.appendAll(tx, messageIds, messages);
  }

  @Override
  public boolean complete(long id, UUID claimId, boolean keep) {
    return store.complete(id, claimId, keep);
  }

  @Override
  public boolean complete(Connection tx, long id, UUID claimId, boolean keep, boolean durable) {
    return store.complete(tx, id, claimId, keep, durable);
  }

  @Override
  public int renew(long[] ids, UUID[] claimIds, Duration lease) {
    return store.renew(ids, claimIds, lease);
  }

  @Override
  public boolean retryLater(long id, UUID claimId, Duration delay, String error) {
    return store.retryLater(id, claimId, delay, error);
  }

  @Override
  public boolean bury(long id, UUID claimId, String error) {
    return store.bury(id, claimId, error);
  }

  @Override
  public boolean requeue(long id) {
    return store.requeue(id);
  }

  @Override
  public List<DeadMessage> dead(long afterId, int limit) {
    return store.dead(afterId, limit);
  }

  @Override
  public int purgeDelivered(Duration retention, int limit) {
    return store.purgeDelivered(retention, limit);
  }

  @Override
  public OutboxStats stats() {
    return store.stats();
  }

  @Override
  public Duration oldestClaimableAge() {
    return store.oldestClaimableAge();
  }

  @Override
  public Instant databaseTime() {
    return store.databaseTime();
  }
}
