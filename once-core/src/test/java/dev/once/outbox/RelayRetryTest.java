package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.PostgresStores;
import dev.once.testing.MutableClock;
import dev.once.testing.TimeTravel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Retries follow the type's policy on the relay's clock; the last failure or a refusal buries. */
class RelayRetryTest {
  private static final RetryPolicy THREE_TRIES =
      new RetryPolicy(3, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(1), 0.0);

  private final DataSource ds = OutboxDatabase.fresh();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final OutboxAdmin admin = OutboxAdmin.of(store);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final List<Integer> attemptsSeen = new CopyOnWriteArrayList<>();

  private final RelayListener listener =
      new RelayListener() {
        @Override
        public void delivered(OutboxRecord message, Duration sinceCommit) {
          events.add("delivered " + message.id() + " after " + sinceCommit);
        }

        @Override
        public void retried(OutboxRecord message, String reason, Instant nextAttemptAt) {
          events.add("retried " + message.id() + " " + reason + " at " + nextAttemptAt);
        }

        @Override
        public void dead(OutboxRecord message, String reason) {
          events.add("dead " + message.id() + " " + reason);
        }

        @Override
        public void claimLost(OutboxRecord message) {
          events.add("claimLost " + message.id());
        }
      };

  /**
   * Time passes: for the rows (whose due times and leases are the database's clock, which a test
   * cannot set, so they are moved back) and for the relay's own clock (its listener's estimates).
   */
  private void advance(Duration by) {
    clock.advance(by);
    TimeTravel.outbox(ds, by);
  }

  private OutboxRelay relay(MessageHandler handler, RetryPolicy policy) {
    return OutboxRelay.builder(store)
        .handler(
            "t",
            row -> {
              attemptsSeen.add(row.attempt());
              return handler.handle(row);
            },
            policy)
        .clock(clock)
        .listener(listener)
        .build();
  }

  @Test
  void aRetriedRowIsTriedAgainAfterTheBackoffAndDiesAfterItsLastAttempt() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    OutboxRelay relay = relay(row -> Delivery.retry("503 from provider"), THREE_TRIES);
    Instant start = clock.instant();

    assertThat(relay.runOnce()).isEqualTo(1);
    assertThat(column(ds, id, "attempts")).isEqualTo("1");
    assertThat(column(ds, id, "last_error")).isEqualTo("503 from provider");
    assertThat(events)
        .containsExactly("retried " + id + " 503 from provider at " + start.plusSeconds(10));

    advance(Duration.ofSeconds(9));
    assertThat(relay.runOnce()).as("not due yet").isZero();
    advance(Duration.ofSeconds(1));
    assertThat(relay.runOnce()).isEqualTo(1);
    assertThat(column(ds, id, "attempts")).isEqualTo("2");
    assertThat(events)
        .last()
        .isEqualTo("retried " + id + " 503 from provider at " + start.plusSeconds(30));

    advance(Duration.ofSeconds(20));
    assertThat(relay.runOnce()).isEqualTo(1);
    assertThat(state(ds, id)).isEqualTo("dead");
    assertThat(column(ds, id, "attempts")).isEqualTo("3");
    assertThat(events).last().asString().startsWith("dead " + id).contains("503 from provider");
    assertThat(attemptsSeen).containsExactly(1, 2, 3);

    advance(Duration.ofHours(1));
    assertThat(relay.runOnce()).isZero();
  }

  @Test
  void aHandlerThatThrowsIsRetriedWithTheExceptionTypeAsReason() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    OutboxRelay relay =
        relay(
            row -> {
              throw new IllegalStateException("secret payload detail");
            },
            THREE_TRIES);

    relay.runOnce();

    assertThat(state(ds, id)).isEqualTo("pending");
    assertThat(column(ds, id, "last_error")).isEqualTo("java.lang.IllegalStateException");
    assertThat(events).hasSize(1).first().asString().startsWith("retried " + id);
  }

  @Test
  void anErrorFromAHandlerIsARetryToo() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    OutboxRelay relay =
        relay(
            row -> {
              throw new AssertionError("boom");
            },
            THREE_TRIES);

    assertThat(relay.runOnce()).isEqualTo(1);
    assertThat(column(ds, id, "last_error")).isEqualTo("java.lang.AssertionError");
  }

  @Test
  void aPermanentFailureBuriesTheRowAtOnceAndRequeueGivesAFreshBudget() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    boolean[] refuse = {true};
    OutboxRelay relay =
        relay(row -> refuse[0] ? Delivery.dead("unknown account") : Delivery.done(), THREE_TRIES);

    relay.runOnce();
    assertThat(state(ds, id)).isEqualTo("dead");
    assertThat(events).containsExactly("dead " + id + " unknown account");
    assertThat(admin.dead(0, 10))
        .extracting(DeadMessage::lastError)
        .containsExactly("unknown account");

    refuse[0] = false;
    assertThat(admin.requeue(id)).isTrue();
    assertThat(relay.runOnce()).isEqualTo(1);

    assertThat(state(ds, id)).isEqualTo("delivered");
    assertThat(attemptsSeen).containsExactly(1, 1);
    assertThat(events).last().isEqualTo("delivered " + id + " after PT0S");
  }

  @Test
  void aTypesOwnPolicyOverridesTheDefault() throws Exception {
    long once = appendCommitted(ds, outbox, "once", "K1").get(0).id();
    long often = appendCommitted(ds, outbox, "often", "K2").get(0).id();
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "once",
                row -> Delivery.retry("x"),
                new RetryPolicy(1, Duration.ofSeconds(1), 1.0, Duration.ofSeconds(1), 0))
            .handler("often", row -> Delivery.retry("x"))
            .defaultRetryPolicy(THREE_TRIES)
            .clock(clock)
            .build();

    assertThat(relay.runOnce()).isEqualTo(2);

    assertThat(state(ds, once)).isEqualTo("dead");
    assertThat(state(ds, often)).isEqualTo("pending");
    assertThat(
            Double.parseDouble(
                column(ds, often, "extract(epoch FROM next_attempt_at - created_at)")))
        .as("due again the default policy's 10 s after the attempt, by the database's clock")
        .isBetween(10.0, 11.0);
  }

  @Test
  void aRowWhoseEarlierClaimsAllEndedWithoutAnOutcomeIsBuriedWithoutCallingTheHandler()
      throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    // Three relays died in the handler: each claim counted an attempt, none recorded an outcome.
    for (int i = 0; i < 3; i++) {
      store.claim(UUID.randomUUID(), List.of("t"), 10, Duration.ofSeconds(60));
      advance(Duration.ofSeconds(61));
    }
    OutboxRelay relay = relay(row -> Delivery.done(), THREE_TRIES);

    assertThat(relay.runOnce()).isEqualTo(1);

    assertThat(attemptsSeen).isEmpty();
    assertThat(state(ds, id)).isEqualTo("dead");
    assertThat(events).hasSize(1).first().asString().startsWith("dead " + id + " gave up");
  }

  @Test
  void anOutcomeRecordedAfterTheLeaseWasTakenOverIsDiscardedAsClaimLost() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    List<UUID> thief = new ArrayList<>();
    OutboxRelay relay =
        relay(
            row -> {
              // The handler outlives its lease and another relay takes the row over.
              advance(Duration.ofMinutes(2));
              UUID other = UUID.randomUUID();
              thief.add(other);
              store.claim(other, List.of("t"), 10, Duration.ofSeconds(60));
              return Delivery.done();
            },
            THREE_TRIES);

    assertThat(relay.runOnce()).isEqualTo(1);

    assertThat(events).containsExactly("claimLost " + id);
    assertThat(state(ds, id)).isEqualTo("pending");
    assertThat(column(ds, id, "claim_id")).isEqualTo(thief.get(0).toString());
  }

  @Test
  void aListenerThatThrowsDoesNotUndoOrStopTheDelivery() throws Exception {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "A", "B");
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler("t", row -> Delivery.done())
            .clock(clock)
            .listener(
                new RelayListener() {
                  @Override
                  public void delivered(OutboxRecord message, Duration sinceCommit) {
                    throw new IllegalStateException("metrics down");
                  }
                })
            .build();

    assertThat(relay.runOnce()).isEqualTo(2);

    assertThat(state(ds, rows.get(0).id())).isEqualTo("delivered");
    assertThat(state(ds, rows.get(1).id())).isEqualTo("delivered");
  }

  @Test
  void theListenerHearsOfAnOutcomeOnlyOnceItIsCommitted() throws Exception {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "ok", "A");
    rows.addAll(appendCommitted(ds, outbox, "fail", "B"));
    rows.addAll(appendCommitted(ds, outbox, "refuse", "C"));
    List<String> seen = new CopyOnWriteArrayList<>();
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler("ok", row -> Delivery.done())
            .handler("fail", row -> Delivery.retry("503"))
            .handler("refuse", row -> Delivery.dead("no"))
            .clock(clock)
            .listener(
                new RelayListener() {
                  @Override
                  public void delivered(OutboxRecord message, Duration sinceCommit) {
                    seen.add(message.type() + ":" + stateOf(message.id()));
                  }

                  @Override
                  public void retried(OutboxRecord message, String reason, Instant next) {
                    seen.add(message.type() + ":" + columnOf(message.id(), "last_error"));
                  }

                  @Override
                  public void dead(OutboxRecord message, String reason) {
                    seen.add(message.type() + ":" + stateOf(message.id()));
                  }
                })
            .build();

    assertThat(relay.runOnce()).isEqualTo(3);

    assertThat(seen).containsExactlyInAnyOrder("ok:delivered", "fail:503", "refuse:dead");
  }

  private String stateOf(long id) {
    return columnOf(id, "state");
  }

  private String columnOf(long id, String name) {
    try {
      return OutboxDatabase.column(ds, id, name);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
