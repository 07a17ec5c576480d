package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.postgres.OutboxSqlAccess;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TimeTravel;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The store's contract on a real PostgreSQL: each test on a database of its own. */
class PostgresOutboxStoreTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final OutboxAdmin admin = OutboxAdmin.of(store);

  private List<OutboxRecord> claim(UUID claimId, String... types) {
    return store.claim(claimId, List.of(types), 100, LEASE);
  }

  /** The database's clock moves ahead by {@code by}, as far as the outbox's rows can tell. */
  private void advance(Duration by) {
    TimeTravel.outbox(ds, by);
  }

  @Test
  void claimHandsOutACommittedRowWithItsAttemptCountedAndLeasesIt() throws SQLException {
    Instant before = store.databaseTime();
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();

    List<OutboxRecord> claimed = claim(claimId, "t");

    assertThat(claimed).hasSize(1);
    OutboxRecord row = claimed.get(0);
    assertThat(row.id()).isEqualTo(entry.id());
    assertThat(row.messageId()).isEqualTo(entry.messageId());
    assertThat(row.aggregateId()).isEqualTo("a1");
    assertThat(row.payloadJson()).isEqualTo("{\"n\": 1}");
    assertThat(row.attempt()).isEqualTo(1);
    assertThat(row.createdAt()).as("the database's clock").isBetween(before, store.databaseTime());
    assertThat(column(ds, row.id(), "claim_id")).isEqualTo(claimId.toString());
    assertThat(claim(UUID.randomUUID(), "t")).as("leased").isEmpty();
  }

  @Test
  void uncommittedRowsAreNotClaimed() throws SQLException {
    try (Connection tx = OutboxDatabase.transaction(ds)) {
      outbox.append(tx, new OutboxMessage("t", "a1", "{}"));
      assertThat(claim(UUID.randomUUID(), "t")).isEmpty();
      tx.rollback();
    }
    assertThat(claim(UUID.randomUUID(), "t")).isEmpty();
  }

  @Test
  void claimTakesOnlyTheGivenTypes() throws SQLException {
    appendCommitted(ds, outbox, "mine", "a1");
    OutboxEntry other = appendCommitted(ds, outbox, "theirs", "a2").get(0);

    assertThat(claim(UUID.randomUUID(), "mine"))
        .extracting(OutboxRecord::type)
        .containsOnly("mine");
    assertThat(state(ds, other.id())).isEqualTo("pending");
    assertThat(column(ds, other.id(), "attempts")).isEqualTo("0");
  }

  @Test
  void claimRespectsTheLimitAndTheDueOrder() throws SQLException {
    List<OutboxEntry> entries = appendCommitted(ds, outbox, "t", "a1", "a2", "a3");

    List<OutboxRecord> first = store.claim(UUID.randomUUID(), List.of("t"), 2, LEASE);

    assertThat(first)
        .extracting(OutboxRecord::id)
        .containsExactly(entries.get(0).id(), entries.get(1).id());
  }

  @Test
  void aLeasedRowIsClaimedAgainOnlyAfterItsLeaseAndTheStaleClaimantCannotRecordAnOutcome()
      throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID stale = UUID.randomUUID();
    assertThat(claim(stale, "t")).hasSize(1);

    advance(LEASE.minusSeconds(1));
    assertThat(claim(UUID.randomUUID(), "t")).isEmpty();

    advance(Duration.ofSeconds(1));
    UUID fresh = UUID.randomUUID();
    List<OutboxRecord> again = claim(fresh, "t");
    assertThat(again).extracting(OutboxRecord::attempt).containsExactly(2);

    assertThat(store.complete(entry.id(), stale, true)).isFalse();
    assertThat(store.retryLater(entry.id(), stale, Duration.ZERO, "x")).isFalse();
    assertThat(store.bury(entry.id(), stale, "x")).isFalse();
    assertThat(state(ds, entry.id())).isEqualTo("pending");
    assertThat(column(ds, entry.id(), "claim_id")).isEqualTo(fresh.toString());

    assertThat(store.complete(entry.id(), fresh, true)).isTrue();
    assertThat(state(ds, entry.id())).isEqualTo("delivered");
    assertThat(column(ds, entry.id(), "lease_until")).isNull();
    assertThat(store.complete(entry.id(), fresh, true)).as("only once").isFalse();
  }

  @Test
  void compareAndSetWithAWrongClaimChangesNothing() throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");
    UUID wrong = UUID.randomUUID();

    assertThat(store.complete(entry.id(), wrong, true)).isFalse();
    assertThat(store.retryLater(entry.id(), wrong, Duration.ZERO, "x")).isFalse();
    assertThat(store.bury(entry.id(), wrong, "x")).isFalse();
    assertThat(store.complete(entry.id() + 1000, claimId, true)).isFalse();

    assertThat(state(ds, entry.id())).isEqualTo("pending");
    assertThat(column(ds, entry.id(), "last_error")).isNull();
    assertThat(column(ds, entry.id(), "claim_id")).isEqualTo(claimId.toString());
  }

  @Test
  void retryLaterReleasesTheRowUntilItsNextAttemptTime() throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");

    assertThat(store.retryLater(entry.id(), claimId, Duration.ofSeconds(30), "503")).isTrue();

    assertThat(column(ds, entry.id(), "last_error")).isEqualTo("503");
    assertThat(column(ds, entry.id(), "claim_id")).isNull();
    advance(Duration.ofSeconds(29));
    assertThat(claim(UUID.randomUUID(), "t")).isEmpty();
    advance(Duration.ofSeconds(1));
    assertThat(claim(UUID.randomUUID(), "t")).extracting(OutboxRecord::attempt).containsExactly(2);
  }

  @Test
  void aBuriedRowIsListedAsDeadAndRequeuedWithAFreshAttemptBudget() throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");
    assertThat(store.bury(entry.id(), claimId, "refused")).isTrue();
    assertThat(claim(UUID.randomUUID(), "t")).isEmpty();

    List<DeadMessage> dead = admin.dead(0, 10);
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).id()).isEqualTo(entry.id());
    assertThat(dead.get(0).messageId()).isEqualTo(entry.messageId());
    assertThat(dead.get(0).attempts()).isEqualTo(1);
    assertThat(dead.get(0).lastError()).isEqualTo("refused");
    assertThat(admin.dead(entry.id(), 10)).isEmpty();

    assertThat(admin.requeue(entry.id())).isTrue();
    assertThat(admin.requeue(entry.id())).as("no longer dead").isFalse();
    assertThat(admin.dead(0, 10)).isEmpty();
    assertThat(claim(UUID.randomUUID(), "t")).extracting(OutboxRecord::attempt).containsExactly(1);
  }

  /**
   * What an operator reads: the rows not delivered, per type (pending, held behind a dead row,
   * dead), and one dead row with its payload, which the list leaves out.
   */
  @Test
  void operatorsReadCountsByTypeAndOneDeadRowWithItsPayload() throws SQLException {
    assertThat(admin.countsByType()).isEmpty();
    List<OutboxEntry> t = appendCommitted(ds, outbox, "t", "a1", "a2");
    appendCommitted(ds, outbox, "u", "b1");
    UUID claimId = UUID.randomUUID();
    assertThat(claim(claimId, "t")).hasSize(2);
    assertThat(store.bury(t.get(0).id(), claimId, "refused")).isTrue();
    appendCommitted(ds, outbox, "u", "a1"); // behind the dead row of a1: held

    assertThat(admin.countsByType())
        .containsExactly(new TypeCounts("t", 1, 0, 1), new TypeCounts("u", 1, 1, 0));
    assertThat(admin.deadMessage(t.get(0).id()))
        .hasValueSatisfying(dead -> assertThat(dead.lastError()).isEqualTo("refused"));
    assertThat(admin.deadMessage(t.get(1).id())).as("in flight, not dead").isEmpty();
    assertThat(admin.deadMessage(0)).isEmpty();
    assertThat(admin.deadMessage(Long.MAX_VALUE)).isEmpty();
    assertThat(admin.deadPayload(t.get(0).id())).contains("{\"n\": 1}");
    assertThat(admin.deadPayload(t.get(1).id())).isEmpty();
    assertThat(admin.deadPayload(-1)).isEmpty();
  }

  @Test
  void requeueOfARowThatIsNotDeadChangesNothing() throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    assertThat(admin.requeue(entry.id())).isFalse();
    assertThat(admin.requeue(Long.MAX_VALUE)).isFalse();
    assertThat(state(ds, entry.id())).isEqualTo("pending");
  }

  @Test
  void lastErrorIsTruncated() throws SQLException {
    OutboxEntry entry = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");
    store.bury(entry.id(), claimId, "x".repeat(5000));
    assertThat(column(ds, entry.id(), "last_error")).hasSize(1000);
  }

  @Test
  void purgeDeletesOnlyDeliveredRowsOlderThanTheCutoffInBatches() throws SQLException {
    List<OutboxEntry> delivered = appendCommitted(ds, outbox, "t", "a1", "a2", "a3");
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");
    for (OutboxEntry e : delivered) {
      store.complete(e.id(), claimId, true);
    }
    OutboxEntry dead = appendCommitted(ds, outbox, "t", "a4").get(0);
    UUID deadClaim = UUID.randomUUID();
    claim(deadClaim, "t");
    store.bury(dead.id(), deadClaim, "x");
    OutboxEntry pending = appendCommitted(ds, outbox, "t", "a5").get(0);
    advance(Duration.ofMinutes(1));
    OutboxEntry fresh = appendCommitted(ds, outbox, "t", "a6").get(0);
    UUID freshClaim = UUID.randomUUID();
    claim(freshClaim, "t");
    store.complete(fresh.id(), freshClaim, true);

    Duration retention = Duration.ofSeconds(30);
    assertThat(store.purgeDelivered(retention, 2)).isEqualTo(2);
    assertThat(store.purgeDelivered(retention, 2)).isEqualTo(1);
    assertThat(store.purgeDelivered(retention, 2)).isZero();

    for (OutboxEntry e : delivered) {
      assertThat(state(ds, e.id())).isNull();
    }
    assertThat(state(ds, dead.id())).isEqualTo("dead");
    assertThat(state(ds, pending.id())).isEqualTo("pending");
    assertThat(state(ds, fresh.id())).as("younger than the cutoff").isEqualTo("delivered");
  }

  @Test
  void statsCountTheBacklogTheOldestDueAgeAndTheDead() throws SQLException {
    assertThat(admin.stats()).isEqualTo(new OutboxStats(0, Duration.ZERO, 0));
    OutboxEntry dead = appendCommitted(ds, outbox, "t", "a1").get(0);
    UUID claimId = UUID.randomUUID();
    claim(claimId, "t");
    store.bury(dead.id(), claimId, "x");
    appendCommitted(ds, outbox, "t", "a2");
    advance(Duration.ofSeconds(5));
    OutboxEntry later = appendCommitted(ds, outbox, "t", "a3").get(0);
    UUID laterClaim = UUID.randomUUID();
    claim(laterClaim, "t");
    store.retryLater(later.id(), laterClaim, Duration.ofSeconds(60), "x");
    advance(Duration.ofSeconds(2));

    // The ages are the database's clock: a statement later than the shift by a few milliseconds.
    OutboxStats stats = admin.stats();
    assertThat(stats.backlog()).isEqualTo(2);
    assertThat(stats.dead()).isEqualTo(1);
    assertThat(stats.oldestDueAge()).isBetween(Duration.ofSeconds(7), Duration.ofSeconds(8));
  }

  @Test
  void adminRefusesALimitOutOfRangeAndANegativeAfterId() {
    assertThatThrownBy(() -> admin.dead(0, 0)).hasMessage("limit must be 1 to 1000, but was 0");
    assertThatThrownBy(() -> admin.dead(0, 1001))
        .hasMessage("limit must be 1 to 1000, but was 1001");
    assertThatThrownBy(() -> admin.dead(-1, 10))
        .hasMessage("afterId must be at least 0, but was -1");
  }

  @Test
  void theRelaysStatementsWalkThePartialIndexesNotTheTable() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      // A backlog of a few thousand rows over a hundred aggregates, delivered and dead rows beside.
      s.execute(
          """
          INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state, next_attempt_at,
                                   created_at, delivered_at)
          SELECT gen_random_uuid(), 't', 'agg' || (g % 100), '{}',
                 CASE WHEN g < 3000 THEN 'delivered' WHEN g < 3100 THEN 'dead' ELSE 'pending' END,
                 now(), now(), CASE WHEN g < 3000 THEN now() END
            FROM generate_series(0, 5999) g
          """);
      s.execute("ANALYZE once.outbox");

      String claim =
          plan(
              s,
              OutboxSqlAccess.claim()
                  .replaceFirst("\\?", "ARRAY['t']")
                  .replaceFirst("\\?", "100")
                  .replaceFirst("\\?", "gen_random_uuid()")
                  .replaceFirst("\\?", "10000000"));
      assertThat(claim)
          .doesNotContain("Seq Scan")
          .contains("outbox_due_free_idx", "outbox_aggregate_idx", "outbox_pkey")
          .contains("outbox_pause_pkey");

      String purge =
          plan(
              s,
              OutboxSqlAccess.purgeDelivered()
                  .replaceFirst("\\?", "0")
                  .replaceFirst("\\?", "1000"));
      assertThat(purge).doesNotContain("Seq Scan").contains("outbox_delivered_idx", "outbox_pkey");

      String dead =
          plan(s, OutboxSqlAccess.dead().replaceFirst("\\?", "0").replaceFirst("\\?", "100"));
      assertThat(dead).doesNotContain("Seq Scan").contains("outbox_dead_idx");

      // The backlog count may scan when half the table is pending; the other two use indexes.
      String stats = plan(s, OutboxSqlAccess.stats());
      assertThat(stats).contains("outbox_due_free_idx", "outbox_dead_idx");
    }
  }

  @Test
  void theClaimWalksTheDueIndexInOrderEvenWhenStatisticsLagABurst() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      // Statistics taken while the outbox was empty, then a burst (a provider outage's backlog)
      // that no ANALYZE has seen yet.
      s.execute("ALTER TABLE once.outbox SET (autovacuum_enabled = false)");
      s.execute("ANALYZE once.outbox");
      s.execute(
          """
          INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                   created_at)
          SELECT gen_random_uuid(), 't', 'agg' || g, '{}', now(), now()
            FROM generate_series(0, 19999) g
          """);
      String claim =
          OutboxSqlAccess.claim()
              .replaceFirst("\\?", "ARRAY['t']")
              .replaceFirst("\\?", "100")
              .replaceFirst("\\?", "gen_random_uuid()")
              .replaceFirst("\\?", "10000000");

      c.setAutoCommit(false);
      try {
        String unguided = plan(s, claim);
        s.execute(OutboxSqlAccess.claimSettings());
        String guided = plan(s, claim);

        assertThat(unguided)
            .as("premise: with lagging statistics the planner tests and sorts every due row")
            .contains("Bitmap Heap Scan", "Sort");
        assertThat(guided)
            .as("the claim stops after its batch instead of testing and sorting every due row")
            .contains("Index Scan using outbox_due_free_idx")
            .doesNotContain("Bitmap")
            .doesNotContain("Sort");
      } finally {
        c.rollback();
        c.setAutoCommit(true);
        s.execute("ALTER TABLE once.outbox RESET (autovacuum_enabled)");
      }
    }
  }

  /**
   * The purges' deletes walk their indexes at the batch size a purge that catches up grows to
   * (10,000 rows), on tables far larger than a batch (issue 22): no statement scans a table.
   */
  @Test
  void theKeyAndInboxPurgesWalkTheirIndexesAtTheLargestBatchAPurgeGrowsTo() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          """
          INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                            body, created_at, completed_at, expires_at)
          SELECT 'c' || (g % 100), 'k' || g, decode(repeat('00', 32), 'hex'), 'completed', 201,
                 '\\x'::bytea, now(), now(),
                 now() + (CASE WHEN g % 4 = 0 THEN -1 ELSE 1 END) * interval '1 hour'
            FROM generate_series(1, 100000) g
          """);
      s.execute(
          """
          INSERT INTO once.inbox (message_id, consumer, received_at)
          SELECT gen_random_uuid(), 'consumer-' || (g % 3),
                 now() - (g % 14) * interval '1 day'
            FROM generate_series(1, 100000) g
          """);
      s.execute("ANALYZE once.idempotency_key");
      s.execute("ANALYZE once.inbox");

      String keys = plan(s, OutboxSqlAccess.deleteExpiredKeys().replaceFirst("\\?", "10000"));
      assertThat(keys)
          .doesNotContain("Seq Scan")
          .contains("idempotency_key_expires_at_idx", "Tid Scan");

      String inbox =
          plan(
              s,
              OutboxSqlAccess.purgeInbox()
                  .replaceFirst("\\?", String.valueOf(7L * 24 * 3600 * 1_000_000))
                  .replaceFirst("\\?", "10000"));
      assertThat(inbox).doesNotContain("Seq Scan").contains("inbox_received_at_idx", "Tid Scan");
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
