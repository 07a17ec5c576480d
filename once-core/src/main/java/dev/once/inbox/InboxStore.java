package dev.once.inbox;

import java.sql.Connection;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The inbox's storage primitives. Thread-safe. A record's time and the purge's cut-off are the
 * database's clock, so that instances whose clocks disagree purge the same records.
 */
public interface InboxStore {

  /**
   * Records {@code (messageId, consumer)} in the caller's transaction with one insert that does
   * nothing on conflict, stamped with the database's clock.
   *
   * @return {@code true} if the record is new (the consumer has not had the message), {@code false}
   *     if it exists (a duplicate; a concurrent first delivery makes this wait for its end)
   */
  boolean claim(Connection tx, UUID messageId, String consumer);

  /**
   * Records {@code (messageId, consumer)} for each of {@code messageIds} in the caller's
   * transaction, in ascending message-id order (so that two transactions recording overlapping
   * batches lock their records in one order and never deadlock), doing nothing for a record that
   * exists; an id given twice is recorded once. By default one {@link #claim} after another in that
   * order; a store should do it in one statement.
   *
   * @return the ids whose record is new (the consumer has not had them)
   */
  default Set<UUID> claimAll(Connection tx, Collection<UUID> messageIds, String consumer) {
    Set<UUID> fresh = new LinkedHashSet<>();
    for (UUID id : new TreeSet<>(messageIds)) {
      if (claim(tx, id, consumer)) {
        fresh.add(id);
      }
    }
    return fresh;
  }

  /**
   * Deletes up to {@code limit} records received more than {@code retention} ago by the database's
   * clock, oldest first; returns how many.
   */
  int purge(Duration retention, int limit);
}
