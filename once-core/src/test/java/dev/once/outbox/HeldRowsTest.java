package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.analyze;
import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.claimBuffers;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rows held behind a dead row of their aggregate cost the claim nothing: they leave the index the
 * claim walks, whether they were appended before the row died or after, and come back, in order,
 * when an operator requeues it.
 */
@Timeout(120)
class HeldRowsTest {

  private final DataSource ds = OutboxDatabase.fresh();
  private final Clock clock = Clock.systemUTC();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  @Test
  void theBuffersAClaimReadsDoNotGrowWithTheRowsHeldBehindADeadRow() throws Exception {
    long head = appendCommitted(ds, outbox, "t", "hot").get(0).id();
    appendMany("hot", 20);
    bury(head);
    appendMany("hot", 20);
    appendCommitted(ds, outbox, "t", "other-1", "other-2", "other-3");
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE held")).isEqualTo(40);
    analyze(ds);
    long few = claimBuffers(ds);

    appendMany("hot", 5_000);
    analyze(ds);
    long many = claimBuffers(ds);

    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE held")).isEqualTo(5_040);
    assertThat(many)
        .as("buffers of a claim behind 5,040 held rows, against %d behind 40", few)
        .isLessThanOrEqualTo(few + 5);
  }

  @Test
  void requeueingTheDeadRowReleasesTheHeldRowsAndTheyAreDeliveredInOrder() throws Exception {
    long head = appendCommitted(ds, outbox, "t", "hot").get(0).id();
    List<Long> before = appendMany("hot", 3);
    bury(head);
    List<Long> after = appendMany("hot", 3);
    long other = appendCommitted(ds, outbox, "t", "other").get(0).id();
    List<Long> order = new ArrayList<>();
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  order.add(row.id());
                  return Delivery.done();
                })
            .workers(1)
            .batchSize(1)
            .build();
    while (relay.runOnce() > 0) {}
    assertThat(order).containsExactly(other);

    assertThat(OutboxAdmin.of(store).requeue(head)).isTrue();
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE held")).isZero();
    while (relay.runOnce() > 0) {}

    List<Long> expected = new ArrayList<>(List.of(other, head));
    expected.addAll(before);
    expected.addAll(after);
    assertThat(order).containsExactlyElementsOf(expected);
    assertThat(state(ds, after.get(2))).isEqualTo("delivered");
  }

  @Test
  void theOldestDueAgeIgnoresRowsHeldBehindADeadRow() throws Exception {
    long head = appendCommitted(ds, outbox, "t", "hot").get(0).id();
    appendMany("hot", 2);
    bury(head);
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("UPDATE once.outbox SET next_attempt_at = now() - interval '1 hour'");
    }
    OutboxStats stats = OutboxAdmin.of(store).stats();
    assertThat(stats.backlog()).isEqualTo(2);
    assertThat(stats.dead()).isEqualTo(1);
    assertThat(stats.oldestDueAge()).as("only held rows are due").isZero();
  }

  private void bury(long id) {
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("t"), 1, Duration.ofSeconds(60)))
        .extracting(OutboxRecord::id)
        .containsExactly(id);
    assertThat(store.bury(id, claim, "refused")).isTrue();
  }

  private List<Long> appendMany(String aggregate, int rows) throws SQLException {
    String[] aggregates = new String[rows];
    java.util.Arrays.fill(aggregates, aggregate);
    return appendCommitted(ds, outbox, "t", aggregates).stream().map(OutboxEntry::id).toList();
  }
}
