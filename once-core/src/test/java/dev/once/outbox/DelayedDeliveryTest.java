package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.analyze;
import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.claimBuffers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Delayed delivery ({@link NotBefore}): a row is due at its append's time plus its delay, or at its
 * instant, by the database's clock; the claim takes nothing before that, and the rows of its
 * aggregate appended after it wait behind it. On a real PostgreSQL, a database per test.
 */
@Timeout(60)
class DelayedDeliveryTest {
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  @Test
  void aDelayedRowIsDueItsDelayAfterTheAppendByTheDatabasesClock() throws SQLException {
    OutboxEntry entry =
        append(new OutboxMessage("t", "a1", "{}").deliverAfter(Duration.ofHours(2)));

    assertThat(dueAfterCreation(entry.id())).isEqualTo(Duration.ofHours(2));
    assertThat(claim()).as("not claimed before it is due").isEmpty();
  }

  @Test
  void aRowDueAtAnInstantIsDueThen() throws SQLException {
    Instant at = Instant.parse("2100-01-01T00:00:00Z");
    OutboxEntry entry = append(new OutboxMessage("t", "a1", "{}").deliverAt(at));

    assertThat(due(entry.id())).isEqualTo(at);
    assertThat(claim()).isEmpty();
  }

  @Test
  void anInstantAlreadyPastAndAZeroDelayMeanNow() throws SQLException {
    OutboxEntry past =
        append(new OutboxMessage("t", "a1", "{}").deliverAt(Instant.parse("2000-01-01T00:00:00Z")));
    OutboxEntry zero = append(new OutboxMessage("t", "a2", "{}").deliverAfter(Duration.ZERO));

    assertThat(dueAfterCreation(past.id())).isZero();
    assertThat(dueAfterCreation(zero.id())).isZero();
    assertThat(claim()).extracting(OutboxRecord::id).containsExactly(past.id(), zero.id());
  }

  @Test
  void laterRowsOfTheAggregateWaitBehindADelayedOneAndOthersDoNot() throws SQLException {
    OutboxEntry earlier = append(new OutboxMessage("t", "a1", "{\"n\":0}"));
    OutboxEntry delayed =
        append(new OutboxMessage("t", "a1", "{\"n\":1}").deliverAfter(Duration.ofHours(1)));
    OutboxEntry behind = append(new OutboxMessage("t", "a1", "{\"n\":2}"));
    OutboxEntry other = append(new OutboxMessage("t", "b1", "{}"));

    List<OutboxRecord> first = claim();
    assertThat(first).extracting(OutboxRecord::id).containsExactly(earlier.id(), other.id());
    first.forEach(row -> assertThat(store.complete(row.id(), claimOf(row.id()), true)).isTrue());

    assertThat(claim()).as("the delayed row is not due, and the row after it waits").isEmpty();

    makeDue(delayed.id());
    assertThat(claim()).extracting(OutboxRecord::id).containsExactly(delayed.id());
    assertThat(behind.id()).isGreaterThan(delayed.id());
  }

  /**
   * The claim walks the due-ordered index and stops at the first row not yet due: rows delayed into
   * the future are never read, however many there are.
   */
  @Test
  void theBuffersAClaimReadsDoNotGrowWithTheRowsDelayedIntoTheFuture() throws SQLException {
    appendCommitted(ds, outbox, "t", "due-1", "due-2", "due-3");
    // Enough rows that the plan is the one of a real table (index probes, not a scan of one page).
    appendDelayed(1_000);
    analyze(ds);
    long few = claimBuffers(ds);

    appendDelayed(5_000);
    analyze(ds);
    long many = claimBuffers(ds);

    assertThat(many)
        .as("buffers of a claim beside 6,000 delayed rows, against %d beside 1,000", few)
        .isLessThanOrEqualTo(few + 5);
  }

  @Test
  void anOutOfRangeNotBeforeIsRefusedBeforeAnythingIsWritten() {
    assertThatThrownBy(() -> NotBefore.after(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay");
    assertThatThrownBy(() -> NotBefore.after(NotBefore.MAX_DELAY.plusSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NotBefore.at(Instant.MAX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at must be");
    assertThatThrownBy(() -> new NotBefore(Instant.EPOCH, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theTraceContextKeepsTheDelay() {
    OutboxMessage message =
        new OutboxMessage("t", "a1", "{}").deliverAfter(Duration.ofMinutes(5)).withTrace(null);
    assertThat(message.notBefore()).isEqualTo(NotBefore.after(Duration.ofMinutes(5)));
  }

  private OutboxEntry append(OutboxMessage message) throws SQLException {
    try (Connection tx = OutboxDatabase.transaction(ds)) {
      OutboxEntry entry = outbox.append(tx, message);
      tx.commit();
      return entry;
    }
  }

  /** {@code rows} rows of aggregates of their own, each due an hour after its append. */
  private void appendDelayed(int rows) throws SQLException {
    try (Connection tx = OutboxDatabase.transaction(ds)) {
      for (int i = 0; i < rows; i++) {
        outbox.append(
            tx,
            new OutboxMessage("t", "later-" + UUID.randomUUID(), "{}")
                .deliverAfter(Duration.ofHours(1)));
      }
      tx.commit();
    }
  }

  private List<OutboxRecord> claim() {
    return store.claim(UUID.randomUUID(), List.of("t"), 10, Duration.ofMinutes(1));
  }

  private Duration dueAfterCreation(long id) throws SQLException {
    long micros =
        single(
            "SELECT CAST(extract(epoch FROM next_attempt_at - created_at) * 1000000 AS bigint)"
                + " FROM once.outbox WHERE id = ?",
            id,
            Long.class);
    return Duration.ofNanos(micros * 1000);
  }

  private Instant due(long id) throws SQLException {
    return single("SELECT next_attempt_at FROM once.outbox WHERE id = ?", id, OffsetDateTime.class)
        .toInstant();
  }

  private UUID claimOf(long id) {
    try {
      return single("SELECT claim_id FROM once.outbox WHERE id = ?", id, UUID.class);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The one value {@code sql} selects for the row {@code id}. */
  private <T> T single(String sql, long id, Class<T> type) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("row %s", id).isTrue();
        return rs.getObject(1, type);
      }
    }
  }

  /** The time has come: the row is due now (its delay elapsed, without waiting for it). */
  private void makeDue(long id) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE once.outbox SET next_attempt_at = statement_timestamp() WHERE id = ?")) {
      ps.setLong(1, id);
      assertThat(ps.executeUpdate()).isOne();
    }
  }
}
