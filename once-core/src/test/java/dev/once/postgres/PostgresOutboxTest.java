package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PostgresOutboxTest {
  private final Outbox outbox = PostgresStores.outbox();
  private final String aggregate = "pay_" + UUID.randomUUID();

  @Test
  void messageExistsOnlyIfTheTransactionCommits() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      outbox.append(tx, new OutboxMessage("provider.charge", aggregate, "{\"a\":1}"));
      tx.rollback();
    }
    assertThat(count()).isZero();

    OutboxEntry entry;
    try (Connection tx = TestDatabase.transaction()) {
      entry = outbox.append(tx, new OutboxMessage("provider.charge", aggregate, "{\"a\":1}"));
      tx.commit();
    }
    assertThat(count()).isEqualTo(1);
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT message_id, state, attempts, payload->>'a' FROM once.outbox WHERE id = ?")) {
      ps.setLong(1, entry.id());
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, UUID.class)).isEqualTo(entry.messageId());
        assertThat(rs.getString(2)).isEqualTo("pending");
        assertThat(rs.getInt(3)).isZero();
        assertThat(rs.getString(4)).isEqualTo("1");
      }
    }
  }

  @Test
  void appendOutsideATransactionIsRefused() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection()) {
      c.setAutoCommit(true);
      assertThatThrownBy(
              () -> outbox.append(c, new OutboxMessage("provider.charge", aggregate, "{}")))
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(count()).isZero();
  }

  private long count() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM once.outbox WHERE aggregate_id = ?")) {
      ps.setString(1, aggregate);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
