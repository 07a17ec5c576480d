package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import dev.once.testing.MutableClock;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rows of one aggregate are delivered one at a time, in commit order; others keep flowing. */
class RelayOrderingTest {
  private final DataSource ds = OutboxDatabase.fresh();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final List<String> handled = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  private OutboxRelay relay(Function<OutboxRecord, Delivery> outcome) {
    return OutboxRelay.builder(store)
        .handler(
            "t",
            row -> {
              handled.add(row.aggregateId() + "#" + row.id());
              return outcome.apply(row);
            })
        .clock(clock)
        .build();
  }

  @Test
  void aSecondAppendForTheSameAggregateWaitsForTheFirstTransactionBeforeDrawingItsId()
      throws Exception {
    OutboxRelay relay = relay(row -> Delivery.done());
    try (Connection a = OutboxDatabase.transaction(ds)) {
      OutboxEntry first = outbox.append(a, new OutboxMessage("t", "K", "{}"));

      CountDownLatch bAppending = new CountDownLatch(1);
      Future<OutboxEntry> second =
          threads.submit(
              () -> {
                try (Connection b = OutboxDatabase.transaction(ds)) {
                  bAppending.countDown();
                  OutboxEntry entry = outbox.append(b, new OutboxMessage("t", "K", "{}"));
                  b.commit();
                  return entry;
                }
              });
      assertThat(bAppending.await(10, TimeUnit.SECONDS)).isTrue();
      // B is blocked on the aggregate's advisory lock, not merely slow.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  scalar(
                          ds,
                          "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                              + " AND database = (SELECT oid FROM pg_database"
                              + " WHERE datname = current_database())")
                      == 1);
      assertThat(second).isNotDone();
      // ...and it has not drawn its id yet: the lock comes before nextval.
      assertThat(
              scalar(
                  ds,
                  "SELECT last_value FROM "
                      + "(SELECT pg_get_serial_sequence('once.outbox', 'id') AS s) n,"
                      + " LATERAL (SELECT last_value FROM pg_sequences"
                      + " WHERE schemaname || '.' || sequencename = n.s) v"))
          .isEqualTo(first.id());
      // Nothing of K is due while A is open and B waits.
      assertThat(relay.runOnce()).isZero();

      a.commit();
      OutboxEntry later = second.get(10, TimeUnit.SECONDS);

      assertThat(later.id()).isGreaterThan(first.id());
      assertThat(relay.runOnce()).isEqualTo(1);
      assertThat(relay.runOnce()).isEqualTo(1);
      assertThat(handled).containsExactly("K#" + first.id(), "K#" + later.id());
    }
  }

  @Test
  void aRowWhoseTransactionCommitsLateIsStillDelivered() throws Exception {
    OutboxRelay relay = relay(row -> Delivery.done());
    try (Connection late = OutboxDatabase.transaction(ds)) {
      OutboxEntry lateEntry = outbox.append(late, new OutboxMessage("t", "X", "{}"));
      List<OutboxEntry> others = appendCommitted(ds, outbox, "t", "Y", "Z");
      assertThat(others.get(0).id()).isGreaterThan(lateEntry.id());

      assertThat(relay.runOnce()).isEqualTo(2);
      assertThat(handled)
          .containsExactlyInAnyOrder("Y#" + others.get(0).id(), "Z#" + others.get(1).id());

      late.commit();
      clock.advance(Duration.ofSeconds(1));
      assertThat(relay.runOnce()).isEqualTo(1);
      assertThat(handled).last().isEqualTo("X#" + lateEntry.id());
      assertThat(state(ds, lateEntry.id())).isEqualTo("delivered");
    }
  }

  @Test
  void aRowWaitingForItsRetryHoldsBackOnlyTheLaterRowsOfItsAggregate() throws Exception {
    List<OutboxEntry> k = appendCommitted(ds, outbox, "t", "K", "K");
    OutboxRelay relay =
        relay(row -> row.id() == k.get(0).id() ? Delivery.retry("503") : Delivery.done());
    appendCommitted(ds, outbox, "t", "O1");

    relay.runOnce();
    List<OutboxEntry> more = appendCommitted(ds, outbox, "t", "O2");
    relay.runOnce();

    assertThat(state(ds, more.get(0).id())).isEqualTo("delivered");
    assertThat(handled).noneMatch(h -> h.equals("K#" + k.get(1).id()));
    assertThat(state(ds, k.get(1).id())).isEqualTo("pending");
  }

  @Test
  void aDeadRowHoldsBackItsAggregateUntilRequeuedThenBothGoInOrder() throws Exception {
    List<OutboxEntry> k = appendCommitted(ds, outbox, "t", "K", "K");
    boolean[] refuse = {true};
    OutboxRelay relay =
        relay(
            row ->
                row.id() == k.get(0).id() && refuse[0]
                    ? Delivery.dead("refused")
                    : Delivery.done());
    relay.runOnce();
    assertThat(state(ds, k.get(0).id())).isEqualTo("dead");
    List<OutboxEntry> other = appendCommitted(ds, outbox, "t", "O");
    relay.runOnce();
    relay.runOnce();
    assertThat(state(ds, other.get(0).id())).isEqualTo("delivered");
    assertThat(state(ds, k.get(1).id())).isEqualTo("pending");

    refuse[0] = false;
    assertThat(OutboxAdmin.of(store).requeue(k.get(0).id())).isTrue();
    relay.runOnce();
    relay.runOnce();

    assertThat(handled)
        .containsSubsequence(
            "K#" + k.get(0).id(),
            "O#" + other.get(0).id(),
            "K#" + k.get(0).id(),
            "K#" + k.get(1).id());
    assertThat(handled).filteredOn(h -> h.equals("K#" + k.get(1).id())).hasSize(1);
    assertThat(state(ds, k.get(1).id())).isEqualTo("delivered");
  }

  @Test
  void aRowInFlightHoldsBackItsAggregateWhileOtherAggregatesFlow() throws Exception {
    List<OutboxEntry> k = appendCommitted(ds, outbox, "t", "K", "K");
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  handled.add(row.aggregateId() + "#" + row.id());
                  if (row.id() == k.get(0).id()) {
                    inHandler.countDown();
                    release.await();
                  }
                  return Delivery.done();
                })
            .clock(clock)
            .workers(4)
            .pollInterval(Duration.ofHours(1))
            .build()) {
      relay.start();
      relay.wakeUp();
      assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

      List<OutboxEntry> others = appendCommitted(ds, outbox, "t", "A", "B", "C");
      relay.wakeUp();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> scalar(ds, "SELECT count(*) FROM once.outbox WHERE state = 'delivered'") == 3);
      for (OutboxEntry e : others) {
        assertThat(state(ds, e.id())).isEqualTo("delivered");
      }
      assertThat(handled).doesNotContain("K#" + k.get(1).id());

      release.countDown();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> "delivered".equals(state(ds, k.get(1).id())));
      assertThat(handled.indexOf("K#" + k.get(0).id()))
          .isLessThan(handled.indexOf("K#" + k.get(1).id()));
    }
  }
}
