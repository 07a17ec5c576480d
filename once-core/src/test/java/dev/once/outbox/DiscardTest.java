package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.PostgresStores;
import dev.once.testing.TimeTravel;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Discarding a dead row (issue 40): the row is never delivered and ends {@code discarded}; the rows
 * its aggregate held behind it are released and delivered in their order; the discard is a
 * compare-and-set on {@code dead}, so nothing else is discarded and a second discard changes
 * nothing; a discarded row is purged like a delivered one.
 */
class DiscardTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final OutboxAdmin admin = OutboxAdmin.of(store);

  @Test
  void aDiscardedRowIsNeverDeliveredAndTheRowsHeldBehindItGoOnInOrder() throws SQLException {
    long dead = bury(appendCommitted(ds, outbox, "t", "a").get(0).id());
    List<OutboxEntry> behind = appendCommitted(ds, outbox, "t", "a", "a");
    for (OutboxEntry row : behind) {
      assertThat(column(ds, row.id(), "held")).as("held behind the dead row").isEqualTo("true");
    }

    assertThat(admin.discard(dead)).isTrue();

    assertThat(state(ds, dead)).isEqualTo("discarded");
    assertThat(column(ds, dead, "last_error")).as("kept").isEqualTo("refused");
    for (OutboxEntry row : behind) {
      assertThat(column(ds, row.id(), "held")).as("released").isEqualTo("false");
    }
    assertThat(admin.stats().dead()).isZero();
    assertThat(admin.dead(0, 10)).isEmpty();
    // The rows behind it, one at a time in their order, and never the discarded one.
    UUID first = UUID.randomUUID();
    assertThat(store.claim(first, List.of("t"), 10, LEASE))
        .extracting(OutboxRecord::id)
        .containsExactly(behind.get(0).id());
    assertThat(store.complete(behind.get(0).id(), first, false)).isTrue();
    UUID second = UUID.randomUUID();
    assertThat(store.claim(second, List.of("t"), 10, LEASE))
        .extracting(OutboxRecord::id)
        .containsExactly(behind.get(1).id());
    assertThat(store.complete(behind.get(1).id(), second, false)).isTrue();
    assertThat(store.claim(UUID.randomUUID(), List.of("t"), 10, LEASE)).isEmpty();
    // A later row of the aggregate is not held: nothing dead is in its way.
    long later = appendCommitted(ds, outbox, "t", "a").get(0).id();
    assertThat(column(ds, later, "held")).isEqualTo("false");
  }

  @Test
  void onlyADeadRowIsDiscardedAndOnlyOnce() throws SQLException {
    long dead = bury(appendCommitted(ds, outbox, "t", "b").get(0).id());
    long pending = appendCommitted(ds, outbox, "t", "c").get(0).id();

    assertThat(admin.discard(pending)).isFalse();
    assertThat(state(ds, pending)).isEqualTo("pending");
    assertThat(admin.discard(0)).isFalse();
    assertThat(admin.discard(-1)).isFalse();
    assertThat(admin.discard(Long.MAX_VALUE)).isFalse();
    assertThat(admin.discard(dead)).isTrue();
    assertThat(admin.discard(dead)).as("no longer dead").isFalse();
    assertThat(admin.requeue(dead)).as("a discarded row is not requeued").isFalse();
    assertThat(state(ds, dead)).isEqualTo("discarded");
  }

  @Test
  void aDiscardedRowIsPurgedLikeADeliveredOne() throws SQLException {
    long discarded = bury(appendCommitted(ds, outbox, "t", "d").get(0).id());
    long stillDead = bury(appendCommitted(ds, outbox, "t", "e").get(0).id());
    assertThat(admin.discard(discarded)).isTrue();
    TimeTravel.outbox(ds, Duration.ofDays(8));

    assertThat(store.purgeDelivered(Duration.ofDays(7), 100)).isEqualTo(1);

    assertThat(
            OutboxDatabase.scalar(ds, "SELECT count(*) FROM once.outbox WHERE id = " + discarded))
        .isZero();
    assertThat(state(ds, stillDead)).isEqualTo("dead");
  }

  /**
   * An append of the aggregate that has not committed holds the aggregate's lock: the discard waits
   * for it, then releases the new row too, which is delivered after the rows before it.
   */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void aDiscardWaitsForAnUncommittedAppendOfItsAggregateAndReleasesItToo() throws Exception {
    long dead = bury(appendCommitted(ds, outbox, "t", "f").get(0).id());
    long appended;
    java.util.concurrent.CompletableFuture<Boolean> discard;
    try (java.sql.Connection tx = OutboxDatabase.transaction(ds)) {
      appended = outbox.append(tx, new OutboxMessage("t", "f", "{}")).id();
      discard = java.util.concurrent.CompletableFuture.supplyAsync(() -> admin.discard(dead));
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (OutboxDatabase.scalar(ds, "SELECT count(*) FROM pg_locks WHERE NOT granted") == 0) {
        assertThat(System.nanoTime())
            .as("the discard waits for the append's lock")
            .isLessThan(deadline);
        Thread.onSpinWait();
      }
      assertThat(discard).as("still waiting").isNotDone();
      tx.commit();
    }

    assertThat(discard.get(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(state(ds, dead)).isEqualTo("discarded");
    assertThat(column(ds, appended, "held")).as("released with the others").isEqualTo("false");
    assertThat(store.claim(UUID.randomUUID(), List.of("t"), 10, LEASE))
        .extracting(OutboxRecord::id)
        .containsExactly(appended);
  }

  /** Claims the row and buries it; its id. */
  private long bury(long id) {
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("t"), 100, LEASE))
        .extracting(OutboxRecord::id)
        .contains(id);
    assertThat(store.bury(id, claim, "refused")).isTrue();
    return id;
  }
}
