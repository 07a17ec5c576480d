package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.analyze;
import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.claimBuffers;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static dev.once.outbox.OutboxDatabase.transaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Pausing a message type (issue 40): the pause lives in the database, so a relay on another
 * instance honours it; its rows stay pending and due with no attempt counted; appends go on; an
 * aggregate's later rows wait behind a paused one; it lasts through a relay restart; a resume
 * delivers everything in order; the races of an append with a pause or a resume never deliver a
 * paused row nor strand a resumed one; and a paused backlog does not slow the claims of other
 * types.
 */
class PausedTypesTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final OutboxAdmin admin = OutboxAdmin.of(store);
  private final List<Long> delivered = Collections.synchronizedList(new ArrayList<>());

  @Test
  void aPauseOnOneInstanceIsHonouredByTheRelayOfAnotherUntilResumed() throws SQLException {
    // Another instance: a store and a relay of its own, sharing only the database.
    OutboxStore otherInstance = PostgresStores.outboxStore(ds);
    OutboxRelay relay = relay(otherInstance);
    assertThat(admin.pause("p", "alice", "provider maintenance")).isTrue();
    long paused = appendCommitted(ds, outbox, "p", "a").get(0).id();
    long other = appendCommitted(ds, outbox, "t", "b").get(0).id();

    drain(relay);

    assertThat(delivered).containsExactly(other);
    assertThat(state(ds, paused)).isEqualTo("pending");
    assertThat(column(ds, paused, "attempts")).as("never attempted").isEqualTo("0");
    assertThat(column(ds, paused, "paused")).as("out of the claim's index").isEqualTo("true");
    assertThat(admin.paused())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.type()).isEqualTo("p");
              assertThat(p.pausedBy()).isEqualTo("alice");
              assertThat(p.reason()).isEqualTo("provider maintenance");
              assertThat(p.since()).isNotNull();
            });

    assertThat(admin.resume("p")).isTrue();
    drain(relay);

    assertThat(delivered).containsExactly(other, paused);
    assertThat(column(ds, paused, "attempts")).isEqualTo("1");
    assertThat(admin.paused()).isEmpty();
    assertThat(admin.resume("p")).as("not paused any more").isFalse();
  }

  @Test
  void pausingMarksTheRowsAlreadyWaitingAndASecondPauseKeepsTheFirst() throws SQLException {
    List<OutboxEntry> waiting = appendCommitted(ds, outbox, "p", "a", "b", "c");

    assertThat(admin.pause("p", "alice", "first")).isTrue();
    assertThat(admin.pause("p", "bob", "second")).as("paused already").isFalse();

    for (OutboxEntry row : waiting) {
      assertThat(column(ds, row.id(), "paused")).isEqualTo("true");
    }
    assertThat(admin.paused()).extracting(PausedType::pausedBy).containsExactly("alice");
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).isEmpty();
    assertThat(admin.oldestClaimableAge()).as("a paused row waits for no relay").isZero();
    assertThat(admin.resume("p")).isTrue();
    for (OutboxEntry row : waiting) {
      assertThat(column(ds, row.id(), "paused")).isEqualTo("false");
    }
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).hasSize(3);
  }

  @Test
  void anAggregatesLaterRowsOfOtherTypesWaitBehindItsPausedRow() throws SQLException {
    admin.pause("p", "alice", null);
    long first = appendCommitted(ds, outbox, "p", "order-1").get(0).id();
    long second = appendCommitted(ds, outbox, "t", "order-1").get(0).id();
    long unrelated = appendCommitted(ds, outbox, "t", "order-2").get(0).id();
    OutboxRelay relay = relay(store);

    drain(relay);
    assertThat(delivered).containsExactly(unrelated);

    admin.resume("p");
    drain(relay);
    assertThat(delivered).containsExactly(unrelated, first, second);
  }

  @Test
  void aPauseLastsThroughARelayRestartAndARelayCanPauseATypeAtStart() throws SQLException {
    long row = appendCommitted(ds, outbox, "p", "a").get(0).id();
    OutboxRelay first = relay(store, "p");
    first.start();
    first.close();
    assertThat(admin.paused())
        .extracting(PausedType::pausedBy)
        .containsExactly(OutboxRelay.Builder.PAUSED_AT_START_BY);

    OutboxRelay restarted = relay(store);
    restarted.start();
    try {
      assertThat(restarted.runOnce()).isZero();
      assertThat(state(ds, row)).isEqualTo("pending");
    } finally {
      restarted.close();
    }
    assertThat(delivered).isEmpty();

    admin.resume("p");
    drain(relay(store));
    assertThat(delivered).containsExactly(row);
  }

  @Test
  void aDeadRowRequeuedWhilePausedWaitsForTheResume() throws SQLException {
    long row = appendCommitted(ds, outbox, "p", "a").get(0).id();
    UUID claim = UUID.randomUUID();
    assertThat(store.claim(claim, List.of("p"), 10, LEASE)).hasSize(1);
    assertThat(store.bury(row, claim, "refused")).isTrue();
    admin.pause("p", "alice", null);

    assertThat(admin.requeue(row)).isTrue();

    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).isEmpty();
    admin.resume("p");
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE))
        .extracting(OutboxRecord::id)
        .containsExactly(row);
  }

  /** An append that read "not paused" and commits after the pause: the claim still refuses it. */
  @Test
  void anAppendRacingAPauseIsNotDelivered() throws SQLException {
    long row;
    try (Connection tx = transaction(ds)) {
      row = outbox.append(tx, new OutboxMessage("p", "a", "{}")).id();
      assertThat(admin.pause("p", "alice", null)).isTrue();
      tx.commit();
    }
    assertThat(column(ds, row, "paused")).as("the mark missed it").isEqualTo("false");

    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).isEmpty();
    assertThat(admin.resume("p")).isTrue();
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).hasSize(1);
  }

  /** An append that read "paused" and commits after the resume: the housekeeping releases it. */
  @Test
  void anAppendRacingAResumeIsReleasedByTheHousekeeping() throws SQLException {
    admin.pause("p", "alice", null);
    long row;
    try (Connection tx = transaction(ds)) {
      row = outbox.append(tx, new OutboxMessage("p", "a", "{}")).id();
      assertThat(admin.resume("p")).isTrue();
      tx.commit();
    }
    assertThat(column(ds, row, "paused")).as("the resume missed it").isEqualTo("true");
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE)).isEmpty();

    assertThat(store.releaseResumed()).isEqualTo(1);

    assertThat(store.releaseResumed()).as("nothing left").isZero();
    assertThat(store.claim(UUID.randomUUID(), List.of("p"), 10, LEASE))
        .extracting(OutboxRecord::id)
        .containsExactly(row);
  }

  @Test
  void theHousekeepingLeavesTheRowsOfATypeStillPaused() throws SQLException {
    admin.pause("p", "alice", null);
    appendCommitted(ds, outbox, "p", "a", "b");

    assertThat(store.releaseResumed()).isZero();

    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE paused")).isEqualTo(2);
  }

  @Test
  void theBuffersAClaimReadsDoNotGrowWithAPausedBacklog() throws SQLException {
    admin.pause("p", "alice", null);
    appendCommitted(ds, outbox, "p", aggregates(20));
    appendCommitted(ds, outbox, "t", "t-1", "t-2", "t-3");
    analyze(ds);
    long few = claimBuffers(ds);

    appendCommitted(ds, outbox, "p", aggregates(5_000));
    analyze(ds);
    long many = claimBuffers(ds);

    assertThat(many)
        .as("buffers of a claim behind 5,020 paused rows, against %d behind 20", few)
        .isLessThanOrEqualTo(few + 5);
  }

  @Test
  void refusesBlankAndOverlongArgumentsAndChangesNothing() throws SQLException {
    appendCommitted(ds, outbox, "p", "a");
    assertThatThrownBy(() -> admin.pause(" ", "alice", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("type must not be blank");
    assertThatThrownBy(() -> admin.pause("x".repeat(201), "alice", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("type must be at most 200 characters, but had 201");
    assertThatThrownBy(() -> admin.pause("p", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pausedBy must not be blank");
    assertThatThrownBy(() -> admin.pause("p", "alice", "r".repeat(1001)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reason must be at most 1000 characters, but had 1001");
    assertThatThrownBy(() -> admin.resume(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("type must not be blank");
    assertThatThrownBy(
            () ->
                OutboxRelay.builder(store)
                    .handler("t", row -> Delivery.done())
                    .pausedAtStart(List.of(""))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pausedAtStart");

    assertThat(admin.paused()).isEmpty();
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox WHERE paused")).isZero();
  }

  private OutboxRelay relay(OutboxStore on, String... pausedAtStart) {
    MessageHandler handler =
        row -> {
          delivered.add(row.id());
          return Delivery.done();
        };
    return OutboxRelay.builder(on)
        .handler("p", handler)
        .handler("t", handler)
        .pausedAtStart(List.of(pausedAtStart))
        .workers(1)
        .batchSize(1)
        .build();
  }

  private static void drain(OutboxRelay relay) {
    while (relay.runOnce() > 0) {}
  }

  private static String[] aggregates(int rows) {
    String[] aggregates = new String[rows];
    Arrays.setAll(aggregates, i -> "agg-" + i);
    return aggregates;
  }
}
