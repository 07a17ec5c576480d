package dev.once.outbox;

import java.sql.Connection;

/**
 * The write side of the transactional outbox: appends a message in the caller's transaction, so it
 * exists if and only if the business effect that produced it commits. Nothing is sent here;
 * delivery happens after commit. Implementations are thread-safe.
 */
public interface Outbox {

  /**
   * Appends a message, due at once, in the caller's transaction.
   *
   * @param tx a connection inside the business transaction (auto-commit off)
   * @throws IllegalStateException if {@code tx} is in auto-commit mode
   * @throws OutboxException if the database fails
   */
  OutboxEntry append(Connection tx, OutboxMessage message);
}
