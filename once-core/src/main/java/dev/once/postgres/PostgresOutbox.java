package dev.once.postgres;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxException;
import dev.once.outbox.OutboxMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.UUID;

/** {@link Outbox} on the {@code once.outbox} table. */
final class PostgresOutbox implements Outbox {
  private final Clock clock;

  PostgresOutbox(Clock clock) {
    this.clock = clock;
  }

  @Override
  public OutboxEntry append(Connection tx, OutboxMessage message) {
    try {
      if (tx.getAutoCommit()) {
        throw new IllegalStateException(
            "append must run inside the business transaction: the connection is in auto-commit mode");
      }
      UUID messageId = UUID.randomUUID();
      OffsetDateTime now = PostgresIdempotencyStore.utc(clock.instant());
      try (PreparedStatement ps = tx.prepareStatement(OutboxSql.APPEND)) {
        ps.setObject(1, messageId);
        ps.setString(2, message.type());
        ps.setString(3, message.aggregateId());
        ps.setString(4, message.payloadJson());
        ps.setObject(5, now);
        ps.setObject(6, now);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return new OutboxEntry(rs.getLong(1), messageId);
        }
      }
    } catch (SQLException e) {
      throw new OutboxException("Could not append to the outbox.", e);
    }
  }
}
