package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static dev.once.outbox.OutboxDatabase.transaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.postgres.OutboxArchive;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TimeTravel;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The archive mode (issue 40): a completed row moves to {@code once.outbox_archive} in the
 * statement that completes it (alone, in a batch, in a handler's transaction); retained and
 * discarded rows move when the relay purges; day partitions are made ahead (and for the days of
 * rows still to move), expired ones are dropped whole; a drop waiting for the archive's lock never
 * holds up appends, and making partitions never waits for completions.
 */
@Timeout(60)
class ArchiveTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds, new OutboxArchive(30, 3));
  private final Outbox outbox = Outbox.of(store);

  @Test
  void aRelayStartMakesThePartitionsAheadAndACompletionMovesItsRowToTheArchive()
      throws SQLException {
    OutboxRelay relay = relay(Duration.ZERO);
    relay.start();
    relay.close();
    LocalDate today = today();
    assertThat(partitions())
        .as("yesterday through three days ahead")
        .containsExactly(
            name(today.minusDays(1)),
            name(today),
            name(today.plusDays(1)),
            name(today.plusDays(2)),
            name(today.plusDays(3)));
    OutboxEntry row = appendCommitted(ds, outbox, "t", "a").get(0);

    assertThat(relay(Duration.ZERO).runOnce()).isEqualTo(1);

    assertThat(state(ds, row.id())).as("gone from the outbox").isNull();
    assertThat(archived(row.id())).isEqualTo("delivered|t|a|1|" + row.messageId());
    assertThat(
            scalar(
                ds,
                "SELECT count(*) FROM once.outbox_archive WHERE id = "
                    + row.id()
                    + " AND delivered_at::date = (now() AT TIME ZONE 'UTC')::date"))
        .isEqualTo(1);
  }

  @Test
  void batchAndJoinedCompletionsArchiveTheirRowsAndTheFenceStillHolds() throws SQLException {
    store.maintainArchive();
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "a", "b", "c");
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("t"), 10, LEASE)).hasSize(3);

    assertThat(
            store.completeAll(
                new long[] {rows.get(0).id(), rows.get(1).id()},
                new UUID[] {claim, UUID.randomUUID()},
                false))
        .as("the second row's claim is not ours")
        .containsExactly(rows.get(0).id());
    try (Connection tx = transaction(ds)) {
      assertThat(store.complete(tx, rows.get(2).id(), claim, false, true)).isTrue();
      tx.rollback();
    }
    assertThat(state(ds, rows.get(2).id())).as("rolled back with its handler").isEqualTo("pending");
    try (Connection tx = transaction(ds)) {
      assertThat(
              store.completeAll(tx, new long[] {rows.get(2).id()}, new UUID[] {claim}, false, true))
          .containsExactly(rows.get(2).id());
      tx.commit();
    }

    assertThat(archivedIds()).containsExactly(rows.get(0).id(), rows.get(2).id());
    assertThat(state(ds, rows.get(1).id())).isEqualTo("pending");
  }

  @Test
  void retainedAndDiscardedRowsMoveWhenTheRelayPurgesIntoPartitionsOfTheirDays()
      throws SQLException {
    OutboxEntry delivered = appendCommitted(ds, outbox, "t", "a").get(0);
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("t"), 10, LEASE)).hasSize(1);
    assertThat(store.complete(delivered.id(), claim, true)).isTrue();
    OutboxEntry dead = appendCommitted(ds, outbox, "t", "b").get(0);
    UUID second = UUID.randomUUID();
    assertThat(store.claim(second, List.of("t"), 10, LEASE)).hasSize(1);
    assertThat(store.bury(dead.id(), second, "refused")).isTrue();
    assertThat(OutboxAdmin.of(store).discard(dead.id())).isTrue();
    TimeTravel.outbox(ds, Duration.ofDays(5));

    ArchiveMaintenance made = store.maintainArchive();
    int moved = store.purgeDelivered(Duration.ofMinutes(1), 100);

    assertThat(made.made()).as("five days back through three ahead").isEqualTo(9);
    assertThat(moved).isEqualTo(2);
    assertThat(archived(delivered.id())).startsWith("delivered|");
    assertThat(archived(dead.id())).startsWith("discarded|");
    assertThat(
            scalar(
                ds, "SELECT count(*) FROM once.outbox_archive_" + today().minusDays(5).format(DAY)))
        .as("each in the partition of the day it finished")
        .isEqualTo(2);
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isZero();
  }

  @Test
  void rowsFinishedBeforeTheArchivesRetentionAreDeletedNotArchived() throws SQLException {
    OutboxEntry row = appendCommitted(ds, outbox, "t", "a").get(0);
    UUID claim = UUID.randomUUID();
    store.claim(claim, List.of("t"), 10, LEASE);
    assertThat(store.complete(row.id(), claim, true)).isTrue();
    TimeTravel.outbox(ds, Duration.ofDays(40));

    store.maintainArchive();
    assertThat(store.purgeDelivered(Duration.ofMinutes(1), 100)).isEqualTo(1);

    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isZero();
    assertThat(archivedIds()).isEmpty();
    assertThat(partitions())
        .as("none made 40 days back")
        .allMatch(p -> p.compareTo(name(today().minusDays(30))) >= 0);
  }

  @Test
  void partitionsPastTheRetentionAreDroppedWhole() throws SQLException {
    OutboxStore shortLived = PostgresStores.outboxStore(ds, new OutboxArchive(2, 1));
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT once.outbox_archive_prepare(1, CAST((now() AT TIME ZONE 'UTC') AS date) - 6, 4)");
      s.execute(
          "INSERT INTO once.outbox_archive (id, message_id, type, aggregate_id, payload, state,"
              + " attempts, created_at, delivered_at)"
              + " VALUES (1, gen_random_uuid(), 't', 'a', '{}', 'delivered', 1, now() - interval '6 days',"
              + " now() - interval '6 days')");
    }

    ArchiveMaintenance done = shortLived.maintainArchive();

    assertThat(done.dropped()).as("6 to 3 days ago").isEqualTo(4);
    LocalDate today = today();
    assertThat(partitions())
        .containsExactly(name(today.minusDays(1)), name(today), name(today.plusDays(1)));
    assertThat(archivedIds()).isEmpty();
    assertThat(shortLived.maintainArchive()).isEqualTo(new ArchiveMaintenance(0, 0));
  }

  /** A drop waits for a reader of the archive, at most its lock time-out; appends never wait. */
  @Test
  void aDropWaitingForTheArchiveNeverHoldsUpAppends() throws Exception {
    OutboxStore shortLived = PostgresStores.outboxStore(ds, new OutboxArchive(1, 1));
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT once.outbox_archive_prepare(1, CAST((now() AT TIME ZONE 'UTC') AS date) - 5, 2)");
    }
    try (Connection reader = transaction(ds);
        Statement s = reader.createStatement()) {
      s.executeQuery("SELECT count(*) FROM once.outbox_archive").close();
      CompletableFuture<ArchiveMaintenance> maintenance =
          CompletableFuture.supplyAsync(shortLived::maintainArchive);
      awaitALockWait();

      long appended = appendCommitted(ds, outbox, "t", "a").get(0).id();
      assertThat(state(ds, appended)).as("appended while the drop waits").isEqualTo("pending");

      assertThatThrownBy(() -> maintenance.get(30, TimeUnit.SECONDS))
          .as("the drop gave up after its lock time-out")
          .rootCause()
          .hasMessageContaining("canceling statement due to lock timeout");
      reader.rollback();
    }
    assertThat(shortLived.maintainArchive().dropped()).as("dropped on the next run").isEqualTo(2);
  }

  /** Making a partition attaches it with a lock that does not conflict with inserts. */
  @Test
  void partitionsAreMadeWhileACompletionHoldsTheArchive() throws Exception {
    store.maintainArchive();
    OutboxEntry row = appendCommitted(ds, outbox, "t", "a").get(0);
    UUID claim = UUID.randomUUID();
    store.claim(claim, List.of("t"), 10, LEASE);
    try (Connection handler = transaction(ds)) {
      assertThat(store.complete(handler, row.id(), claim, false, true)).isTrue();
      OutboxStore furtherAhead = PostgresStores.outboxStore(ds, new OutboxArchive(30, 10));

      ArchiveMaintenance done =
          CompletableFuture.supplyAsync(furtherAhead::maintainArchive).get(30, TimeUnit.SECONDS);

      assertThat(done.made()).as("days 4 to 10 ahead").isEqualTo(7);
      handler.commit();
    }
    assertThat(archivedIds()).containsExactly(row.id());
  }

  @Test
  void archiveSettingsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> new OutboxArchive(0, 1))
        .hasMessage("retentionDays must be 1 to 3650, but was 0");
    assertThatThrownBy(() -> new OutboxArchive(1, 32))
        .hasMessage("daysAhead must be 1 to 31, but was 32");
  }

  private OutboxRelay relay(Duration retention) {
    return OutboxRelay.builder(store)
        .handler("t", row -> Delivery.done())
        .deliveredRetention(retention)
        .workers(1)
        .build();
  }

  private void awaitALockWait() throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (scalar(ds, "SELECT count(*) FROM pg_locks WHERE NOT granted") == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the drop never waited for the archive's lock");
      }
      Thread.onSpinWait();
    }
  }

  private static LocalDate today() {
    return LocalDate.now(ZoneOffset.UTC);
  }

  private static String name(LocalDate day) {
    return "outbox_archive_" + day.format(DAY);
  }

  private List<String> partitions() throws SQLException {
    return strings(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            + " WHERE i.inhparent = 'once.outbox_archive'::regclass ORDER BY c.relname");
  }

  private List<Long> archivedIds() throws SQLException {
    return strings("SELECT id FROM once.outbox_archive ORDER BY id").stream()
        .map(Long::valueOf)
        .toList();
  }

  private String archived(long id) throws SQLException {
    List<String> rows =
        strings(
            "SELECT state || '|' || type || '|' || aggregate_id || '|' || attempts || '|'"
                + " || message_id FROM once.outbox_archive WHERE id = "
                + id);
    return rows.isEmpty() ? null : rows.get(0);
  }

  private List<String> strings(String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rs.next()) {
        values.add(rs.getString(1));
      }
      return values;
    }
  }
}
