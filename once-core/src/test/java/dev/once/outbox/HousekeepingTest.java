package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.OutboxArchive;
import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The relay's housekeeping, one turn at a time: with a delivered retention of zero (completions
 * remove their own rows) a discarded row is still purged, or moved to the archive; and a row left
 * marked paused after its type was resumed is released.
 */
class HousekeepingTest {
  private final DataSource ds = OutboxDatabase.fresh();

  @Test
  void withARetentionOfZeroADiscardedRowIsPurged() throws SQLException {
    OutboxStore store = PostgresStores.outboxStore(ds);
    long row = discarded(store);

    housekeeping(store).runIfDue();

    assertThat(state(ds, row)).as("purged").isNull();
  }

  @Test
  void withTheArchiveADiscardedRowMovesThereAtARetentionOfZero() throws SQLException {
    OutboxStore store = PostgresStores.outboxStore(ds, new OutboxArchive(30, 1));
    Housekeeping housekeeping = housekeeping(store);
    housekeeping.prepare();
    long row = discarded(store);

    housekeeping.runIfDue();

    assertThat(state(ds, row)).isNull();
    assertThat(
            scalar(
                ds,
                "SELECT count(*) FROM once.outbox_archive WHERE state = 'discarded' AND id = "
                    + row))
        .isEqualTo(1);
  }

  @Test
  void aRowLeftMarkedPausedAfterItsTypeWasResumedIsReleased() throws SQLException {
    OutboxStore store = PostgresStores.outboxStore(ds);
    long row = appendCommitted(ds, Outbox.of(store), "t", "a").get(0).id();
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("UPDATE once.outbox SET paused = true WHERE id = " + row);
    }

    housekeeping(store).runIfDue();

    assertThat(OutboxDatabase.column(ds, row, "paused")).isEqualTo("false");
  }

  private long discarded(OutboxStore store) throws SQLException {
    long row = appendCommitted(ds, Outbox.of(store), "t", "d").get(0).id();
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("t"), 10, Duration.ofMinutes(1))).hasSize(1);
    assertThat(store.bury(row, claim, "refused")).isTrue();
    assertThat(OutboxAdmin.of(store).discard(row)).isTrue();
    return row;
  }

  private static Housekeeping housekeeping(OutboxStore store) {
    OutboxRelay.Builder settings =
        OutboxRelay.builder(store)
            .handler("t", r -> Delivery.done())
            .deliveredRetention(Duration.ZERO);
    return new Housekeeping(
        settings, new RelayCounters(), LoggerFactory.getLogger(HousekeepingTest.class));
  }
}
