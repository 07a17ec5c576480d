package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import dev.once.testing.MutableClock;
import dev.once.testing.TimeTravel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The relay's threads: wake-ups, the purge, failures of the database, closing, settings. */
class OutboxRelayTest {
  private final DataSource ds = OutboxDatabase.fresh();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  private OutboxRelay.Builder builder(OutboxStore on) {
    return OutboxRelay.builder(on)
        .handler("t", row -> Delivery.done())
        .clock(clock)
        .pollInterval(Duration.ofHours(1));
  }

  @Test
  void wakeUpAfterACommitGetsTheRowDeliveredWithoutWaitingForThePoll() throws Exception {
    FlakyStore counting = new FlakyStore(store, 0);
    try (OutboxRelay relay = builder(counting).build()) {
      relay.start();
      // The relay has made its first claim and now sleeps for an hour.
      assertThat(counting.firstClaimAnswered.await(10, TimeUnit.SECONDS)).isTrue();
      long id = appendCommitted(ds, outbox, "t", "K").get(0).id();

      relay.wakeUp();

      await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(state(ds, id)));
    }
  }

  @Test
  @Timeout(30)
  void wakeUpNeverBlocksEvenWhenNothingListens() {
    OutboxRelay relay = builder(store).build();
    // Nothing runs the loop: a wake-up that waited for a listener would block here for ever.
    for (int i = 0; i < 10_000; i++) {
      relay.wakeUp();
    }
    assertThat(relay.isRunning()).isFalse();
    relay.close();
    assertThat(relay.isRunning()).isFalse();
  }

  @Test
  void theLoopSurvivesDatabaseFailuresAndDeliversOnceTheDatabaseIsBack() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    FlakyStore flaky = new FlakyStore(store, 3);
    try (OutboxRelay relay = builder(flaky).pollInterval(Duration.ofMillis(10)).build()) {
      relay.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> "delivered".equals(state(ds, id)));
      assertThat(flaky.claims.get()).isGreaterThanOrEqualTo(4);
    }
  }

  @Test
  void anErrorInAHandlerDoesNotKillItsWorker() throws Exception {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "A", "B", "C");
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  if (row.id() == rows.get(0).id()) {
                    throw new StackOverflowError();
                  }
                  return Delivery.done();
                })
            .clock(clock)
            .workers(1)
            .pollInterval(Duration.ofHours(1))
            .build()) {
      relay.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  "delivered".equals(state(ds, rows.get(1).id()))
                      && "delivered".equals(state(ds, rows.get(2).id())));
      assertThat(column(ds, rows.get(0).id(), "last_error"))
          .isEqualTo("java.lang.StackOverflowError");
    }
  }

  @Test
  void thePurgeDeletesOldDeliveredRowsInBatchesAndNeverPendingOrDeadOnes() throws Exception {
    OutboxRelay manual = builder(store).build();
    List<OutboxEntry> old = appendCommitted(ds, outbox, "t", "A", "B", "C", "D", "E");
    manual.runOnce();
    long dead = appendCommitted(ds, outbox, "refused", "F").get(0).id();
    UUID claim = UUID.randomUUID();
    store.claim(claim, List.of("refused"), 1, Duration.ofSeconds(60));
    store.bury(dead, claim, "x");
    long pending = appendCommitted(ds, outbox, "other", "G").get(0).id();
    clock.advance(Duration.ofMinutes(2));
    TimeTravel.outbox(ds, Duration.ofMinutes(2));
    long young = appendCommitted(ds, outbox, "t", "H").get(0).id();
    manual.runOnce();

    try (OutboxRelay relay =
        builder(store).deliveredRetention(Duration.ofMinutes(1)).purgeBatchSize(2).build()) {
      relay.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> old.stream().allMatch(e -> stateOrFail(e.id()) == null));
    }
    assertThat(state(ds, dead)).isEqualTo("dead");
    assertThat(state(ds, pending)).isEqualTo("pending");
    assertThat(state(ds, young)).isEqualTo("delivered");
  }

  private String stateOrFail(long id) {
    try {
      return state(ds, id);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void closeWaitsForRowsInFlightAndRecordsTheirOutcome() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    String name = "closing-" + UUID.randomUUID();
    CountDownLatch inHandler = new CountDownLatch(1);
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  inHandler.countDown();
                  // Still in flight when close() has stopped the coordinator and waits for us.
                  await()
                      .atMost(Duration.ofSeconds(10))
                      .until(() -> !threadAlive(name + "-coordinator"));
                  return Delivery.done();
                })
            .clock(clock)
            .name(name)
            .shutdownTimeout(Duration.ofMinutes(1))
            .build();
    relay.start();
    assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

    relay.close();

    assertThat(state(ds, id)).isEqualTo("delivered");
    assertThatThrownBy(relay::start).isInstanceOf(IllegalStateException.class);
  }

  private static boolean threadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals(name) && t.isAlive());
  }

  @Test
  void closeInterruptsHandlersThatOutliveTheShutdownTimeout() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    CountDownLatch inHandler = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch handlerEnded = new CountDownLatch(1);
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  inHandler.countDown();
                  try {
                    new CountDownLatch(1).await();
                  } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                  } finally {
                    handlerEnded.countDown();
                  }
                  return Delivery.done();
                })
            .clock(clock)
            .shutdownTimeout(Duration.ZERO)
            .build();
    relay.start();
    assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

    relay.close();

    assertThat(handlerEnded.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(interrupted).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> column(ds, id, "last_error") != null);
    assertThat(state(ds, id)).isEqualTo("pending");
  }

  @Test
  @Timeout(30)
  void startIsIdempotentAndCloseWithoutStartIsFine() {
    OutboxRelay relay = builder(store).build();
    relay.close();
    relay.close();
    assertThat(relay.isRunning()).isFalse();
    OutboxRelay started = builder(store).build();
    started.start();
    started.start();
    assertThat(started.isRunning()).isTrue();
    started.close();
    started.close();
    assertThat(started.isRunning()).isFalse();
  }

  @Test
  void theBuilderNamesTheBadSetting() {
    assertThatThrownBy(() -> OutboxRelay.builder(store).build())
        .hasMessage("an outbox relay needs at least one handler");
    assertThatThrownBy(() -> builder(store).handler("t", row -> Delivery.done()))
        .hasMessage("a handler for type t is already registered");
    assertBad(b -> b.workers(0), "workers must be 1 to 1000, but was 0");
    assertBad(b -> b.batchSize(10_001), "batchSize must be 1 to 10000, but was 10001");
    assertBad(b -> b.purgeBatchSize(0), "purgeBatchSize must be 1 to 100000, but was 0");
    assertBad(
        b -> b.lease(Duration.ofMillis(999)), "lease must be PT1S to PT24H, but was PT0.999S");
    assertBad(
        b -> b.pollInterval(Duration.ofMillis(9)),
        "pollInterval must be PT0.01S to PT1H, but was PT0.009S");
    assertBad(
        b -> b.deliveredRetention(Duration.ofSeconds(-1)),
        "deliveredRetention must be PT0S to PT8760H, but was PT-1S");
    assertBad(b -> b.shutdownTimeout(null), "shutdownTimeout must be PT0S to PT1H, but was null");
  }

  private void assertBad(Consumer<OutboxRelay.Builder> setting, String message) {
    OutboxRelay.Builder b = builder(store);
    setting.accept(b);
    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void aRelayLeavesRowsOfTypesItHasNoHandlerFor() throws Exception {
    long foreign = appendCommitted(ds, outbox, "someone.else", "K").get(0).id();
    long mine = appendCommitted(ds, outbox, "t", "K2").get(0).id();

    assertThat(builder(store).build().runOnce()).isEqualTo(1);

    assertThat(state(ds, mine)).isEqualTo("delivered");
    assertThat(state(ds, foreign)).isEqualTo("pending");
    assertThat(scalar(ds, "SELECT attempts FROM once.outbox WHERE id = " + foreign)).isZero();
  }

  @Test
  void theRelayClaimsNoMoreRowsThanItHasFreeWorkers() throws Exception {
    appendCommitted(ds, outbox, "t", "A", "B", "C", "D", "E");
    CountDownLatch twoInHandlers = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  twoInHandlers.countDown();
                  release.await();
                  return Delivery.done();
                })
            .clock(clock)
            .workers(2)
            .batchSize(100)
            .pollInterval(Duration.ofMillis(10))
            .build()) {
      relay.start();
      assertThat(twoInHandlers.await(10, TimeUnit.SECONDS)).isTrue();

      // Both workers are busy: the other rows stay unclaimed, their leases not running.
      assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE claim_id IS NOT NULL"))
          .isEqualTo(2);
      assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE attempts = 0")).isEqualTo(3);

      release.countDown();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> scalar(ds, "SELECT count(*) FROM once.outbox WHERE state = 'delivered'") == 5);
    }
  }
}
