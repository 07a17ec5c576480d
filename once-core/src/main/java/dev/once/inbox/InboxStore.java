package dev.once.inbox;

import java.sql.Connection;
import java.time.Duration;
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
   * Deletes up to {@code limit} records received more than {@code retention} ago by the database's
   * clock, oldest first; returns how many.
   */
  int purge(Duration retention, int limit);
}
