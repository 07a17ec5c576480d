package dev.once.outbox;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The storage primitives the outbox, its relay and its operators build on; the rules (who may claim
 * what, when a row is retried or dead, ordering, backoff) live in {@link OutboxRelay}. A store only
 * inserts, claims in bounded batches, compares-and-sets on a row's id and claim, and deletes.
 * Methods without a {@link Connection} run in a short transaction of their own. Implementations are
 * thread-safe.
 *
 * <p><b>One clock.</b> Every time a store writes or compares (a row's creation and due times, a
 * lease, a delivery, a purge's cut-off, an age) is the database's clock, never the caller's: the
 * callers pass durations (a lease, a retry delay, a retention), which the store adds to the
 * database's time. So relays whose clocks disagree still agree on which rows are due and whose
 * lease still runs.
 */
public interface OutboxStore {

  /**
   * Inserts a pending row, created and due at the database's clock, in the caller's transaction.
   * Appends for one {@code aggregateId} are serialized until the appending transaction ends, so
   * their ids are in commit order per aggregate. The cost: a second transaction appending for the
   * same aggregate waits until the first commits or rolls back; aggregates whose ids collide on a
   * 32-bit hash wait for each other too (rarely, and only until the first transaction ends).
   */
  OutboxEntry append(Connection tx, UUID messageId, OutboxMessage message);

  /**
   * Appends {@code messages} in order, with the message ids of {@code messageIds} (one each), each
   * row exactly as {@link #append} writes it; a store may send them in one round trip. By default,
   * one {@link #append} after the other.
   *
   * @return the entries, in the order of {@code messages}
   */
  default List<OutboxEntry> appendAll(
      Connection tx, List<UUID> messageIds, List<OutboxMessage> messages) {
    if (messageIds.size() != messages.size()) {
      throw new IllegalArgumentException("one message id per message");
    }
    List<OutboxEntry> entries = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      entries.add(append(tx, messageIds.get(i), messages.get(i)));
    }
    return entries;
  }

  /**
   * Claims up to {@code limit} due rows of the given types for {@code claimId} for {@code lease}
   * from the database's clock, incrementing each row's attempt counter. A row is due when it is
   * pending, its next attempt time has come, no lease on it is running, and no earlier row of its
   * aggregate is still undelivered (pending or dead). Rows locked by a concurrent claim are
   * skipped, never waited for.
   */
  List<OutboxRecord> claim(UUID claimId, List<String> types, int limit, Duration lease);

  /**
   * Marks the row delivered, or deletes it if {@code keep} is false, if {@code claimId} still holds
   * it; {@code false} if it does not. In a short transaction of its own.
   */
  boolean complete(long id, UUID claimId, boolean keep);

  /**
   * As {@link #complete(long, UUID, boolean)}, in the caller's transaction {@code tx}. With {@code
   * durable} the transaction keeps its durability; without, it commits without waiting for the WAL
   * flush, like the store's own outcomes (safe for a handler's transaction whose writes a
   * redelivery re-derives: see {@link OutboxRelay.Builder#asyncCompletions(boolean)}).
   */
  boolean complete(Connection tx, long id, UUID claimId, boolean keep, boolean durable);

  /**
   * Completes, in one statement and a short transaction of its own, each row {@code ids[i]} that
   * {@code claimIds[i]} still holds (the fence is per row: a row whose claim was lost is left
   * alone), marking it delivered or deleting it as {@code keep} says; commits without waiting for
   * the WAL flush, as {@link #complete(long, UUID, boolean)}. By default one {@link #complete(long,
   * UUID, boolean)} per row.
   *
   * @return the ids completed; an id missing from it had lost its claim
   */
  default Set<Long> completeAll(long[] ids, UUID[] claimIds, boolean keep) {
    Set<Long> done = new HashSet<>();
    for (int i = 0; i < ids.length; i++) {
      if (complete(ids[i], claimIds[i], keep)) {
        done.add(ids[i]);
      }
    }
    return done;
  }

  /**
   * As {@link #completeAll(long[], UUID[], boolean)}, in the caller's transaction {@code tx}, whose
   * durability {@code durable} says as {@link #complete(Connection, long, UUID, boolean, boolean)}.
   */
  default Set<Long> completeAll(
      Connection tx, long[] ids, UUID[] claimIds, boolean keep, boolean durable) {
    Set<Long> done = new HashSet<>();
    for (int i = 0; i < ids.length; i++) {
      if (complete(tx, ids[i], claimIds[i], keep, durable)) {
        done.add(ids[i]);
      }
    }
    return done;
  }

  /**
   * Extends the lease of the rows {@code ids[i]} that {@code claimIds[i]} still holds to {@code
   * lease} from the database's clock, in one statement; returns how many it extended. The relay's
   * heartbeat.
   */
  int renew(long[] ids, UUID[] claimIds, Duration lease);

  /**
   * Releases the row for another attempt {@code delay} after the database's clock if {@code
   * claimId} still holds it; {@code false} if it does not.
   */
  boolean retryLater(long id, UUID claimId, Duration delay, String error);

  /** Moves the row to {@code dead} if {@code claimId} still holds it; {@code false} otherwise. */
  boolean bury(long id, UUID claimId, String error);

  /** See {@link OutboxAdmin#requeue(long)}. */
  boolean requeue(long id);

  /** See {@link OutboxAdmin#dead(long, int)}. */
  List<DeadMessage> dead(long afterId, int limit);

  /**
   * Deletes up to {@code limit} rows delivered more than {@code retention} ago by the database's
   * clock, oldest first; returns how many.
   */
  int purgeDelivered(Duration retention, int limit);

  /** See {@link OutboxAdmin#stats()}. */
  OutboxStats stats();

  /**
   * See {@link OutboxAdmin#countsByType()}. By default unsupported, so that a store of your own
   * keeps compiling.
   */
  default List<TypeCounts> countsByType() {
    throw new UnsupportedOperationException("this outbox store does not count rows by type");
  }

  /** See {@link OutboxAdmin#discard(long)}. By default unsupported. */
  default boolean discard(long id) {
    throw new UnsupportedOperationException("this outbox store does not discard rows");
  }

  /** See {@link OutboxAdmin#pause}. By default unsupported. */
  default boolean pause(String type, String pausedBy, String reason) {
    throw new UnsupportedOperationException("this outbox store does not pause types");
  }

  /** See {@link OutboxAdmin#resume}. By default unsupported. */
  default boolean resume(String type) {
    throw new UnsupportedOperationException("this outbox store does not pause types");
  }

  /** See {@link OutboxAdmin#paused()}. By default none: a store that cannot pause has none. */
  default List<PausedType> paused() {
    return List.of();
  }

  /**
   * Housekeeping the relay runs with its purge: releases rows still marked paused whose type is not
   * paused (an append that raced a resume). Returns how many. By default nothing to do.
   */
  default int releaseResumed() {
    return 0;
  }

  /**
   * Whether finished rows move to an archive instead of being deleted (the PostgreSQL store's
   * archive mode): the relay then purges even with a delivered retention of zero (discarded rows
   * move to the archive too) and maintains the archive ({@link #maintainArchive()}). By default
   * not.
   */
  default boolean archives() {
    return false;
  }

  /**
   * Housekeeping of the archive, which the relay runs when it starts and every hour: makes the
   * partitions ahead and drops those past the retention. By default nothing.
   */
  default ArchiveMaintenance maintainArchive() {
    return new ArchiveMaintenance(0, 0);
  }

  /**
   * See {@link OutboxAdmin#replay}: records the replay (or finds the record of the same id) and
   * appends its rows, in one transaction; refuses a window of more than {@code maxRows} rows. By
   * default unsupported.
   */
  default Replay replay(ReplayRequest request, int maxRows) {
    throw new UnsupportedOperationException("this outbox store does not replay");
  }

  /** See {@link OutboxAdmin#replays}. By default none. */
  default List<Replay> replays(int limit) {
    return List.of();
  }

  /** See {@link OutboxAdmin#deadPayload(long)}. By default unsupported. */
  default Optional<String> deadPayload(long id) {
    throw new UnsupportedOperationException("this outbox store does not read payloads");
  }

  /** See {@link OutboxAdmin#oldestClaimableAge()}. */
  Duration oldestClaimableAge();

  /**
   * The database's clock now. The relay compares it with its own clock to detect a skew (and to
   * measure delivery latencies against the rows' creation times); no decision depends on it.
   */
  Instant databaseTime();
}
