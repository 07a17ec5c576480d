package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.column;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.InboxMessage;
import dev.once.postgres.PostgresStores;
import dev.once.tracing.TraceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trace context of a row: written by the append, handed back by the claim, and a stored value
 * that is not a valid context read back as none. On a real PostgreSQL, a database per test.
 */
class OutboxTraceContextTest {
  private static final String TRACEPARENT =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  private OutboxEntry append(OutboxMessage message) throws SQLException {
    try (Connection tx = OutboxDatabase.transaction(ds)) {
      OutboxEntry entry = outbox.append(tx, message);
      tx.commit();
      return entry;
    }
  }

  private OutboxRecord claimOne() {
    List<OutboxRecord> rows =
        store.claim(UUID.randomUUID(), List.of("t"), 10, Duration.ofMinutes(1));
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void theAppendStoresTheContextAndTheClaimHandsItBack() throws SQLException {
    TraceContext trace = new TraceContext(TRACEPARENT, "congo=t61rcWkgMzE");
    OutboxEntry entry = append(new OutboxMessage("t", "a1", "{}").withTrace(trace));

    assertThat(column(ds, entry.id(), "traceparent")).isEqualTo(TRACEPARENT);
    assertThat(column(ds, entry.id(), "tracestate")).isEqualTo("congo=t61rcWkgMzE");
    OutboxRecord row = claimOne();
    assertThat(row.trace()).isEqualTo(trace);
    assertThat(InboxMessage.of(row).trace()).as("carried to the consumer").isEqualTo(trace);
  }

  @Test
  void aMessageWithoutAContextLeavesBothColumnsNull() throws SQLException {
    OutboxEntry entry = append(new OutboxMessage("t", "a1", "{}"));

    assertThat(column(ds, entry.id(), "traceparent")).isNull();
    assertThat(column(ds, entry.id(), "tracestate")).isNull();
    assertThat(claimOne().trace()).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "garbage",
        "",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
      })
  void aMalformedStoredTraceparentIsReadAsNoContext(String stored) throws SQLException {
    OutboxEntry entry = append(new OutboxMessage("t", "a1", "{}"));
    overwrite(entry.id(), stored, "k=v");

    OutboxRecord row = claimOne();

    assertThat(row.id()).isEqualTo(entry.id());
    assertThat(row.trace()).isNull();
  }

  @Test
  void aMalformedStoredTracestateIsDroppedAndTheTraceparentKept() throws SQLException {
    OutboxEntry entry = append(new OutboxMessage("t", "a1", "{}"));
    overwrite(entry.id(), TRACEPARENT, "k=v\u0001");

    assertThat(claimOne().trace()).isEqualTo(new TraceContext(TRACEPARENT, null));
  }

  private void overwrite(long id, String traceparent, String tracestate) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE once.outbox SET traceparent = ?, tracestate = ? WHERE id = ?")) {
      ps.setString(1, traceparent);
      ps.setString(2, tracestate);
      ps.setLong(3, id);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }
}
