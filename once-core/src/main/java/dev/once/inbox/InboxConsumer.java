package dev.once.inbox;

import java.sql.Connection;
import java.util.Set;

/**
 * Applies the effect of a message, exactly once per consumer (G2). A consumer never sees a message
 * outside the inbox: the {@link Inbox} opens the transaction, records {@code (messageId, name)},
 * and only if that record is new calls {@link #consume} with the same transaction, so the record
 * and the effect commit together or not at all. A consumer has no way to skip the dedup.
 */
public interface InboxConsumer {

  /**
   * The consumer's stable name, 1 to 200 characters, e.g. {@code reserve-stock}: the second half of
   * the dedup key. Renaming a consumer makes every message new to it.
   */
  String name();

  /** The message types it consumes. */
  Set<String> types();

  /**
   * Applies the message's effect in {@code tx}. Throwing rolls back the effect and the inbox
   * record, so the message will be delivered again.
   *
   * @param tx the inbox's open transaction; do not commit, roll back or close it
   */
  void consume(Connection tx, InboxMessage message) throws Exception;
}
