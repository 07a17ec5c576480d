package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Relays whose clocks disagree, on one database (issue 22, item 3): leases and due times are the
 * database's clock, so a relay whose clock runs a minute ahead never takes over rows another relay
 * still holds, and one whose clock runs behind never writes a lease that has already run out.
 */
@SuppressWarnings("removal") // Outbox.of(store, clock): the one factory both versions have
class SkewedRelayClockTest {
  private static final Duration LEASE = Duration.ofSeconds(10);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store, Clock.systemUTC());
  private final Queue<String> handled = new ConcurrentLinkedQueue<>();

  private OutboxRelay.Builder relay(
      String name, Clock clock, CountDownLatch started, CountDownLatch release) {
    return OutboxRelay.builder(store)
        .name(name)
        .handler(
            "t",
            row -> {
              handled.add(name + ":" + row.id());
              started.countDown();
              if (!release.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                return Delivery.retry("the test never released the handler");
              }
              return Delivery.done();
            })
        .lease(LEASE)
        .pollInterval(Duration.ofMillis(50))
        .clock(clock);
  }

  private static Clock offset(Duration by) {
    return Clock.offset(Clock.systemUTC(), by);
  }

  @Test
  void aRelayWhoseClockRunsAMinuteAheadDoesNotTakeOverRowsAnotherRelayStillHolds()
      throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (OutboxRelay holder = relay("holder", Clock.systemUTC(), started, release).build()) {
      holder.start();
      assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String claim = column(ds, id, "claim_id");

      OutboxRelay ahead =
          relay("ahead", offset(Duration.ofMinutes(1)), new CountDownLatch(1), release).build();
      assertThat(ahead.runOnce())
          .as("the holder's lease runs for another %s by the database's clock", LEASE)
          .isZero();
      assertThat(column(ds, id, "claim_id")).as("still the holder's").isEqualTo(claim);
      assertThat(column(ds, id, "attempts")).isEqualTo("1");

      release.countDown();
      await().atMost(WAIT).until(() -> "delivered".equals(state(ds, id)));
    }
    assertThat(handled).containsExactly("holder:" + id);
  }

  @Test
  void aRelayWhoseClockRunsBehindWritesALeaseThatStillRunsForTheOthers() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (OutboxRelay behind =
        relay("behind", offset(Duration.ofMinutes(-1)), started, release).build()) {
      behind.start();
      assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

      OutboxRelay onTime =
          relay("on-time", Clock.systemUTC(), new CountDownLatch(1), release).build();
      assertThat(onTime.runOnce()).as("the lease runs from the database's clock").isZero();
      assertThat(
              Double.parseDouble(
                  column(ds, id, "extract(epoch FROM lease_until - statement_timestamp())")))
          .as("seconds of lease left, by the database's clock")
          .isPositive();

      release.countDown();
      await().atMost(WAIT).until(() -> "delivered".equals(state(ds, id)));
    }
    assertThat(handled).containsExactly("behind:" + id);
  }

  @Test
  void aRetryIsDueItsBackoffAfterTheDatabasesClockWhateverTheRelaysClock() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    RetryPolicy tenMinutes =
        new RetryPolicy(5, Duration.ofMinutes(10), 2.0, Duration.ofHours(1), 0.0);
    OutboxRelay behind =
        OutboxRelay.builder(store)
            .handler("t", row -> Delivery.retry("503"), tenMinutes)
            .clock(offset(Duration.ofHours(-1)))
            .build();
    assertThat(behind.runOnce()).isEqualTo(1);

    OutboxRelay onTime = OutboxRelay.builder(store).handler("t", row -> Delivery.done()).build();
    assertThat(onTime.runOnce()).as("not due for another ten minutes").isZero();
    assertThat(
            Double.parseDouble(
                column(ds, id, "extract(epoch FROM next_attempt_at - statement_timestamp())")))
        .as("seconds until the retry, by the database's clock")
        .isBetween(9 * 60.0, 10 * 60.0);
    assertThat(state(ds, id)).isEqualTo("pending");
  }

  @Test
  void aRelayWhoseClockRunsHoursAheadPurgesNoDeliveredRowInsideItsRetention() throws Exception {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "A", "B");
    OutboxRelay deliver = OutboxRelay.builder(store).handler("t", row -> Delivery.done()).build();
    assertThat(deliver.runOnce()).isEqualTo(2);

    CountDownLatch never = new CountDownLatch(1);
    try (OutboxRelay ahead =
        relay("ahead", offset(Duration.ofHours(3)), never, new CountDownLatch(0))
            .deliveredRetention(Duration.ofHours(1))
            .build()) {
      ahead.start();
      // The coordinator's first turn is a claim (nothing to claim: one commit), then a purge (the
      // second): once two commits are counted, the purge has run.
      await().atMost(WAIT).until(() -> ahead.stats().commits() >= 2);
    }
    for (OutboxEntry row : rows) {
      assertThat(state(ds, row.id())).as("delivered a moment ago").isEqualTo("delivered");
    }
  }

  @Test
  void theRelayMeasuresHowFarItsClockIsFromTheDatabasesAndDecidesNothingByIt() throws Exception {
    try (OutboxRelay ahead =
        OutboxRelay.builder(store)
            .handler("t", row -> Delivery.done())
            .clock(offset(Duration.ofMinutes(1)))
            .build()) {
      assertThat(ahead.clockSkew()).as("before the first reading").isZero();
      ahead.start();
      // Read at start: the database's clock minus the relay's, about a minute behind.
      await().atMost(WAIT).until(() -> ahead.clockSkew().compareTo(Duration.ofSeconds(-50)) < 0);
      assertThat(ahead.clockSkew()).isBetween(Duration.ofSeconds(-61), Duration.ofSeconds(-59));

      long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
      ahead.wakeUp();
      await().atMost(WAIT).until(() -> "delivered".equals(state(ds, id)));
    }
  }
}
