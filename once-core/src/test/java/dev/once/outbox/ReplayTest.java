package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.events.InProcessEventTransport;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.postgres.OutboxArchive;
import dev.once.postgres.PostgresStores;
import dev.once.testing.EffectTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replay from the archive (issue 40), through the in-process event transport and real inboxes: a
 * consumer that took an event skips it, a consumer added since takes it; a replay for one consumer
 * makes it, and only it, take the events again; each effect happens once per (event, consumer)
 * apart from that; a replay request sent twice, even at the same moment, appends once; one id
 * cannot name two replays; a window too large is refused and recorded nowhere.
 */
@Timeout(60)
class ReplayTest {
  private static final String TYPE = "order.placed";
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds, new OutboxArchive(30, 3));
  private final OutboxAdmin admin = OutboxAdmin.of(store);
  private final Outbox outbox = Outbox.of(store);
  private final EffectTable effects = new EffectTable(ds);
  private final Inbox inbox = Inbox.of(PostgresStores.inboxStore(ds), Transactions.of(ds));
  private final Instant start = Instant.now().minus(Duration.ofMinutes(1));
  private final Instant end = Instant.now().plus(Duration.ofMinutes(1));
  private List<OutboxEntry> events;

  /** Three events, delivered to the consumer reserve-stock, and archived. */
  @BeforeEach
  void deliverThreeEvents() throws SQLException {
    store.maintainArchive();
    events = appendCommitted(ds, outbox, TYPE, "order-1", "order-2", "order-3");
    drain(consumer("reserve-stock"));
    for (OutboxEntry event : events) {
      assertThat(effects.applied(event.messageId(), "reserve-stock")).isEqualTo(1);
    }
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox_archive")).isEqualTo(3);
  }

  @Test
  void aConsumerAddedLaterTakesTheReplayedEventsAndOneThatTookThemSkipsThem() throws SQLException {
    Replay replay = admin.replay(request(UUID.randomUUID(), null, null));

    assertThat(replay.rows()).isEqualTo(3);
    assertThat(replay.forgotten()).isZero();
    assertThat(replay.repeated()).isFalse();
    drain(consumer("reserve-stock"), consumer("send-mail"));

    for (OutboxEntry event : events) {
      assertThat(effects.applied(event.messageId(), "reserve-stock")).as("skipped").isEqualTo(1);
      assertThat(effects.applied(event.messageId(), "send-mail")).as("added later").isEqualTo(1);
    }
    assertThat(admin.replays(10))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.id()).isEqualTo(replay.id());
              assertThat(r.requestedBy()).isEqualTo("alice");
              assertThat(r.rows()).isEqualTo(3);
              assertThat(r.requestedAt()).isNotNull();
            });
  }

  @Test
  void aReplayForOneConsumerIsTakenAgainByItAndOnlyIt() throws SQLException {
    drain(consumer("reserve-stock"), consumer("send-mail")); // nothing due: both up to date
    admin.replay(request(UUID.randomUUID(), null, null));
    drain(consumer("reserve-stock"), consumer("send-mail"));

    Replay replay = admin.replay(request(UUID.randomUUID(), null, "reserve-stock"));

    assertThat(replay.forgotten()).isEqualTo(3);
    drain(consumer("reserve-stock"), consumer("send-mail"));
    for (OutboxEntry event : events) {
      assertThat(effects.applied(event.messageId(), "reserve-stock")).isEqualTo(2);
      assertThat(effects.applied(event.messageId(), "send-mail")).isEqualTo(1);
    }
  }

  @Test
  void aReplayOfOneAggregateTakesOnlyItsRows() throws SQLException {
    Replay replay = admin.replay(request(UUID.randomUUID(), "order-2", "reserve-stock"));

    assertThat(replay.rows()).isEqualTo(1);
    assertThat(replay.forgotten()).isEqualTo(1);
    drain(consumer("reserve-stock"));
    assertThat(effects.applied(events.get(0).messageId(), "reserve-stock")).isEqualTo(1);
    assertThat(effects.applied(events.get(1).messageId(), "reserve-stock")).isEqualTo(2);
    assertThat(effects.applied(events.get(2).messageId(), "reserve-stock")).isEqualTo(1);
  }

  @Test
  void aRequestSentTwiceAppendsOnceAndAnIdCannotNameTwoReplays() throws SQLException {
    UUID id = UUID.randomUUID();
    admin.replay(request(id, null, "reserve-stock"));

    Replay again = admin.replay(request(id, null, "reserve-stock"));

    assertThat(again.repeated()).isTrue();
    assertThat(again.rows()).as("what the first did").isEqualTo(3);
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).as("appended once").isEqualTo(3);
    assertThatThrownBy(() -> admin.replay(request(id, "order-1", null)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was used for another replay");
    drain(consumer("reserve-stock"));
    for (OutboxEntry event : events) {
      assertThat(effects.applied(event.messageId(), "reserve-stock")).isEqualTo(2);
    }
  }

  @Test
  void twoIdenticalRequestsAtOnceAppendOnce() throws Exception {
    UUID id = UUID.randomUUID();
    CyclicBarrier together = new CyclicBarrier(2);
    CompletableFuture<Replay> first = CompletableFuture.supplyAsync(() -> replayAt(together, id));
    CompletableFuture<Replay> second = CompletableFuture.supplyAsync(() -> replayAt(together, id));

    List<Replay> both = List.of(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS));

    assertThat(both).extracting(Replay::repeated).containsExactlyInAnyOrder(true, false);
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isEqualTo(3);
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox_replay")).isEqualTo(1);
  }

  @Test
  void aMessageStillInTheOutboxIsNotAppendedTwice() throws SQLException {
    admin.replay(request(UUID.randomUUID(), null, null));

    Replay second = admin.replay(request(UUID.randomUUID(), null, null));

    assertThat(second.rows()).isZero();
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isEqualTo(3);
  }

  @Test
  void aWindowTooLargeIsRefusedAndRecordedNowhere() throws SQLException {
    UUID id = UUID.randomUUID();

    assertThatThrownBy(() -> store.replay(request(id, null, "reserve-stock"), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than 2 archived rows");

    assertThat(admin.replays(10)).isEmpty();
    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isZero();
    assertThat(scalar(ds, "SELECT count(*) FROM once.inbox")).as("nothing forgotten").isEqualTo(3);
  }

  @Test
  void malformedRequestsAreRefusedBeforeAnythingIsWritten() throws SQLException {
    Instant now = Instant.now();
    assertThatThrownBy(
            () ->
                new ReplayRequest(
                    UUID.randomUUID(), TYPE, now, now.minusSeconds(1), null, null, "a"))
        .hasMessageContaining("the window is empty or inverted");
    assertThatThrownBy(() -> new ReplayRequest(UUID.randomUUID(), " ", start, now, null, null, "a"))
        .hasMessage("type must not be blank");
    assertThatThrownBy(() -> new ReplayRequest(null, TYPE, start, now, null, null, "a"))
        .hasMessage("id must be given");
    assertThatThrownBy(
            () ->
                new ReplayRequest(UUID.randomUUID(), TYPE, start, now, "x".repeat(256), null, "a"))
        .hasMessage("aggregateId must be at most 255 characters, but had 256");
    assertThatThrownBy(() -> admin.replays(0)).hasMessage("limit must be 1 to 1000, but was 0");
    assertThatThrownBy(
            () ->
                OutboxAdmin.of(PostgresStores.outboxStore(ds))
                    .replay(request(UUID.randomUUID(), null, null)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("archive is off");
    assertThat(admin.replays(10)).isEmpty();
  }

  private Replay replayAt(CyclicBarrier together, UUID id) {
    try {
      together.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return admin.replay(request(id, null, null));
  }

  private ReplayRequest request(UUID id, String aggregate, String consumer) {
    return new ReplayRequest(id, TYPE, start, end, aggregate, consumer, "alice");
  }

  /** Delivers every due row through the in-process transport to {@code consumers}. */
  private void drain(InboxConsumer... consumers) {
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(TYPE, InProcessEventTransport.of(inbox, List.of(consumers)))
            .deliveredRetention(Duration.ZERO)
            .workers(1)
            .build();
    while (relay.runOnce() > 0) {}
  }

  private static InboxConsumer consumer(String name) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> types() {
        return Set.of(TYPE);
      }

      @Override
      public void consume(Connection tx, InboxMessage message) throws SQLException {
        EffectTable.apply(tx, message.messageId(), name);
      }
    };
  }
}
