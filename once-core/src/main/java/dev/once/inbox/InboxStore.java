package dev.once.inbox;

import java.sql.Connection;
import java.time.Instant;
import java.util.UUID;

/** The inbox's storage primitives. Thread-safe. */
public interface InboxStore {

  /**
   * Records {@code (messageId, consumer)} in the caller's transaction with one insert that does
   * nothing on conflict.
   *
   * @return {@code true} if the record is new (the consumer has not had the message), {@code false}
   *     if it exists (a duplicate; a concurrent first delivery makes this wait for its end)
   */
  boolean claim(Connection tx, UUID messageId, String consumer, Instant now);

  /** Deletes up to {@code limit} records received before {@code before}; returns how many. */
  int purge(Instant before, int limit);
}
