package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.OutboxSqlAccess;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TimeTravel;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboxAdmin#oldestClaimableAge()}, the measure of load shedding, on a real PostgreSQL:
 * which rows it counts, and that it reads one row of the due index however large the backlog.
 */
class OldestClaimableAgeTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final OutboxAdmin admin = OutboxAdmin.of(store);

  private List<OutboxRecord> claim(UUID claimId, String type, int limit) {
    return store.claim(claimId, List.of(type), limit, LEASE);
  }

  /** The database's clock moves ahead by {@code by}, as far as the outbox's rows can tell. */
  private void advance(Duration by) {
    TimeTravel.outbox(ds, by);
  }

  /**
   * An age read by the database's clock: {@code expected}, plus the few milliseconds the statements
   * since the last shift took.
   */
  private static Duration about(Duration expected, Duration actual) {
    assertThat(actual).isBetween(expected, expected.plusSeconds(1));
    return actual;
  }

  @Test
  void zeroWithoutRowsAndTheWaitOfTheOldestUnclaimedDueRowOfAnyType() throws SQLException {
    assertThat(admin.oldestClaimableAge()).isEqualTo(Duration.ZERO);
    appendCommitted(ds, outbox, "nobody.handles.this", "a1");
    advance(Duration.ofSeconds(3));
    appendCommitted(ds, outbox, "t", "a2");
    advance(Duration.ofSeconds(4));

    about(Duration.ofSeconds(7), admin.oldestClaimableAge());
  }

  @Test
  void aRowInFlightDoesNotCountUntilItsLeaseRunsOutThenFromItsDueTime() throws SQLException {
    appendCommitted(ds, outbox, "t", "a1");
    advance(Duration.ofSeconds(2));
    appendCommitted(ds, outbox, "t", "a2");
    advance(Duration.ofSeconds(1));
    assertThat(claim(UUID.randomUUID(), "t", 1))
        .extracting(OutboxRecord::aggregateId)
        .containsExactly("a1");

    // a2 waits; a1 is being handled
    about(Duration.ofSeconds(1), admin.oldestClaimableAge());

    advance(LEASE);
    // a1's lease ran out: it waits again, since its due time
    about(LEASE.plusSeconds(3), admin.oldestClaimableAge());
  }

  @Test
  void aRowWaitingForItsRetryCountsOnlyOnceDueAndFromItsNewDueTime() throws SQLException {
    OutboxEntry row = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t", 1);
    advance(Duration.ofSeconds(10));
    store.retryLater(row.id(), claimId, Duration.ofSeconds(5), "provider: HTTP 503");

    assertThat(admin.oldestClaimableAge()).isEqualTo(Duration.ZERO);
    advance(Duration.ofSeconds(7));
    about(Duration.ofSeconds(2), admin.oldestClaimableAge());
  }

  @Test
  void rowsHeldBackBehindADeadRowOfTheirAggregateAndFinishedRowsDoNotCount() throws SQLException {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "poisoned", "poisoned", "done");
    UUID claimId = UUID.randomUUID();
    assertThat(claim(claimId, "t", 10)).hasSize(2);
    store.bury(rows.get(0).id(), claimId, "provider rejected the request");
    store.complete(rows.get(2).id(), claimId, true);
    advance(Duration.ofMinutes(10));

    assertThat(admin.oldestClaimableAge())
        .as("the second row of 'poisoned' waits for an operator, not for the relay")
        .isEqualTo(Duration.ZERO);
    assertThat(admin.stats().oldestDueAge())
        .as("the gauge leaves rows held behind a dead row out too")
        .isEqualTo(Duration.ZERO);
    assertThat(admin.stats().backlog()).as("but counts them in the backlog").isEqualTo(1);
  }

  @Test
  void readsOneRowOfTheDueIndexEvenWhenStatisticsLagABurst() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      // Statistics taken while the outbox was empty, then a backlog no ANALYZE has seen yet.
      s.execute("ALTER TABLE once.outbox SET (autovacuum_enabled = false)");
      s.execute("ANALYZE once.outbox");
      s.execute(
          """
          INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                   created_at)
          SELECT gen_random_uuid(), 't', 'agg' || g, '{}', now(), now()
            FROM generate_series(0, 19999) g
          """);
      String read = OutboxSqlAccess.oldestClaimable();
      c.setAutoCommit(false);
      try {
        s.execute(OutboxSqlAccess.claimSettings());
        String plan = plan(s, read);

        assertThat(plan)
            .contains("Limit", "Index Scan using outbox_due_free_idx")
            .doesNotContain("Bitmap")
            .doesNotContain("Sort")
            .doesNotContain("Aggregate");
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + read)) {
          StringBuilder b = new StringBuilder();
          while (rs.next()) {
            b.append(rs.getString(1)).append('\n');
          }
          assertThat(b.toString())
              .as("stops at the first row instead of walking the backlog")
              .containsPattern(
                  "outbox_due_free_idx on outbox o [^\\n]*\\(actual [^\\n]*rows=1 loops=1\\)");
        }
      } finally {
        c.rollback();
        c.setAutoCommit(true);
        s.execute("ALTER TABLE once.outbox RESET (autovacuum_enabled)");
      }
    }
  }

  private static String plan(Statement s, String sql) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        b.append(rs.getString(1)).append('\n');
      }
    }
    return b.toString();
  }
}
