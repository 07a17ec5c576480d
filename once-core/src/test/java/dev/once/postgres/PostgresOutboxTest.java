package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.NotBefore;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.testing.TestDatabase;
import dev.once.tracing.TraceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
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

  /**
   * A batch of appends writes each row exactly as one append does, in the order given: its own
   * message id, ids ascending, the trace context, a delay, and a row of an aggregate with a dead
   * row held behind it; and only if the transaction commits.
   */
  @Test
  void appendAllWritesEachRowAsAppendDoesInOrder() throws SQLException {
    String other = aggregate + "-held";
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement dead =
            c.prepareStatement(
                "INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state,"
                    + " next_attempt_at, created_at)"
                    + " VALUES (?, 'provider.charge', ?, '{}', 'dead', now(), now())")) {
      dead.setObject(1, UUID.randomUUID());
      dead.setString(2, other);
      dead.executeUpdate();
    }
    TraceContext trace =
        new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null);
    List<OutboxMessage> messages =
        List.of(
            new OutboxMessage("provider.charge", aggregate, "{\"n\":1}", trace),
            new OutboxMessage("provider.charge", other, "{\"n\":2}"),
            new OutboxMessage("provider.charge", aggregate, "{\"n\":3}")
                .withNotBefore(NotBefore.after(Duration.ofHours(1))));
    try (Connection tx = TestDatabase.transaction()) {
      outbox.appendAll(tx, messages);
      tx.rollback();
    }
    assertThat(count()).isZero();

    List<OutboxEntry> entries;
    try (Connection tx = TestDatabase.transaction()) {
      entries = outbox.appendAll(tx, messages);
      tx.commit();
    }
    assertThat(entries).hasSize(3);
    assertThat(entries.stream().map(OutboxEntry::id).toList()).isSorted();
    assertThat(entries.stream().map(OutboxEntry::messageId).distinct()).hasSize(3);
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT message_id, payload->>'n', traceparent, held,"
                    + " next_attempt_at > created_at + INTERVAL '59 minutes'"
                    + " FROM once.outbox WHERE id = ?")) {
      for (int i = 0; i < 3; i++) {
        ps.setLong(1, entries.get(i).id());
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getObject(1, UUID.class)).isEqualTo(entries.get(i).messageId());
          assertThat(rs.getString(2)).isEqualTo(String.valueOf(i + 1));
          assertThat(rs.getString(3)).isEqualTo(i == 0 ? trace.traceparent() : null);
          assertThat(rs.getBoolean(4)).as("held behind the dead row").isEqualTo(i == 1);
          assertThat(rs.getBoolean(5)).as("delayed an hour").isEqualTo(i == 2);
        }
      }
    }
    try (Connection tx = TestDatabase.transaction()) {
      assertThat(outbox.appendAll(tx, List.of())).isEmpty();
      tx.rollback();
    }
  }

  @Test
  void appendAllOutsideATransactionIsRefused() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection()) {
      c.setAutoCommit(true);
      assertThatThrownBy(
              () ->
                  outbox.appendAll(
                      c, List.of(new OutboxMessage("provider.charge", aggregate, "{}"))))
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(count()).isZero();
  }

  private long count() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM once.outbox WHERE aggregate_id IN (?, ?) AND state <> 'dead'")) {
      ps.setString(1, aggregate);
      ps.setString(2, aggregate + "-held");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
