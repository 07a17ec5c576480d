package dev.once.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** The rules of an append, over a store that only writes. Thread-safe. */
final class DefaultOutbox implements Outbox {
  private final OutboxStore store;

  DefaultOutbox(OutboxStore store) {
    this.store = store;
  }

  @Override
  public OutboxEntry append(Connection tx, OutboxMessage message) {
    requireTransaction(tx);
    return store.append(tx, UUID.randomUUID(), message);
  }

  @Override
  public List<OutboxEntry> appendAll(Connection tx, List<OutboxMessage> messages) {
    requireTransaction(tx);
    List<UUID> ids = new ArrayList<>(messages.size());
    for (OutboxMessage message : messages) {
      Objects.requireNonNull(message, "message");
      ids.add(UUID.randomUUID());
    }
    return store.appendAll(tx, ids, messages);
  }

  private static void requireTransaction(Connection tx) {
    try {
      // In auto-commit mode the row would be committed before the business effect, and be
      // delivered even if that effect then rolls back.
      if (tx.getAutoCommit()) {
        throw new IllegalStateException(
            "append must run inside the business transaction: the connection is in auto-commit mode");
      }
    } catch (SQLException e) {
      throw new OutboxException("Could not read the connection's auto-commit mode.", e);
    }
  }
}
