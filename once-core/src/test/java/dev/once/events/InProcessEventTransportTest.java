package dev.once.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.outbox.BatchCompletion;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.postgres.PostgresStores;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Events reach every consumer of their type once in effect, although the relay delivers rows more
 * than once, out of order, and retries a row as a whole when one consumer fails.
 */
class InProcessEventTransportTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final EffectTable effects = new EffectTable(TestDatabase.dataSource());
  private final Inbox inbox =
      Inbox.of(
          PostgresStores.inboxStore(TestDatabase.dataSource()),
          Transactions.of(TestDatabase.dataSource()));

  @Test
  void duplicatedAndReorderedRowsApplyEachEventOncePerConsumer() throws Exception {
    InboxConsumer stock = counting("reserve-stock", "order.placed");
    InboxConsumer mail = counting("send-mail", "order.placed", "order.cancelled");
    InProcessEventTransport transport = InProcessEventTransport.of(inbox, List.of(stock, mail));
    List<OutboxRecord> events = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      events.add(row(i % 3 == 0 ? "order.cancelled" : "order.placed", 1));
    }
    Random random = new Random(20261201L);
    List<OutboxRecord> deliveries = new ArrayList<>();
    for (OutboxRecord event : events) {
      int copies = 2 + random.nextInt(2);
      for (int copy = 0; copy < copies; copy++) {
        deliveries.add(event);
      }
    }
    Collections.shuffle(deliveries, random);

    for (OutboxRecord delivery : deliveries) {
      assertThat(transport.handle(delivery)).isEqualTo(Delivery.done());
    }

    for (OutboxRecord event : events) {
      assertThat(effects.applied(event.messageId(), "send-mail")).isEqualTo(1);
      int expectedStock = event.type().equals("order.placed") ? 1 : 0;
      assertThat(effects.applied(event.messageId(), "reserve-stock")).isEqualTo(expectedStock);
    }
  }

  @Test
  void aFailingConsumerRetriesTheRowAndTheOtherIsNotAppliedTwice() throws Exception {
    AtomicInteger mailCalls = new AtomicInteger();
    InboxConsumer stock = counting("reserve-stock", "order.placed");
    InboxConsumer mail =
        consumer(
            "send-mail",
            Set.of("order.placed"),
            (tx, m) -> {
              EffectTable.apply(tx, m.messageId(), "send-mail");
              if (mailCalls.getAndIncrement() < 2) {
                throw new IllegalStateException("mail server down");
              }
            });
    InProcessEventTransport transport = InProcessEventTransport.of(inbox, List.of(stock, mail));
    OutboxRecord event = row("order.placed", 1);

    Delivery first = transport.handle(event);
    Delivery second = transport.handle(withAttempt(event, 2));
    Delivery third = transport.handle(withAttempt(event, 3));

    assertThat(first).isInstanceOf(Delivery.Retry.class);
    assertThat(((Delivery.Retry) first).reason())
        .contains("send-mail")
        .contains(IllegalStateException.class.getName())
        .doesNotContain("reserve-stock")
        .doesNotContain("mail server down");
    assertThat(second).isInstanceOf(Delivery.Retry.class);
    assertThat(third).isEqualTo(Delivery.done());
    assertThat(effects.applied(event.messageId(), "reserve-stock")).isEqualTo(1);
    assertThat(effects.applied(event.messageId(), "send-mail")).isEqualTo(1);
  }

  @Test
  void aBatchReachesABatchConsumerInOneCallAndAPerRowConsumerRowByRow() throws Exception {
    List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    InboxConsumer stock = batching("reserve-stock", batchSizes, null);
    InboxConsumer mail = counting("send-mail", "order.placed");
    InProcessEventTransport transport = InProcessEventTransport.of(inbox, List.of(stock, mail));
    List<OutboxRecord> rows = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      rows.add(row("order.placed", 1));
    }
    Completions completions = new Completions();

    List<Delivery> outcomes = transport.handleAll(rows, completions);

    assertThat(outcomes).containsOnly(Delivery.done()).hasSize(5);
    assertThat(batchSizes).containsExactly(5);
    for (OutboxRecord r : rows) {
      assertThat(effects.applied(r.messageId(), "reserve-stock")).isEqualTo(1);
      assertThat(effects.applied(r.messageId(), "send-mail")).isEqualTo(1);
    }
    // The last consumer (per row) joins each row's completion to its committed transaction.
    for (OutboxRecord r : rows) {
      assertThat(effects.applied(r.messageId(), "completed")).isEqualTo(1);
    }
  }

  @Test
  void aPoisonEventInABatchFailsAloneAndTheOthersAreAppliedOnceAndCompleted() throws Exception {
    List<OutboxRecord> rows = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      rows.add(row("order.placed", 1));
    }
    UUID poison = rows.get(1).messageId();
    List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    InboxConsumer stock = batching("reserve-stock", batchSizes, poison);
    InProcessEventTransport transport = InProcessEventTransport.of(inbox, List.of(stock));
    Completions completions = new Completions();

    List<Delivery> outcomes = transport.handleAll(rows, completions);

    assertThat(batchSizes).containsExactly(4); // tried as a batch once, then row by row
    for (int i = 0; i < rows.size(); i++) {
      OutboxRecord r = rows.get(i);
      boolean isPoison = r.messageId().equals(poison);
      assertThat(outcomes.get(i))
          .isInstanceOf(isPoison ? Delivery.Retry.class : Delivery.Done.class);
      assertThat(effects.applied(r.messageId(), "reserve-stock")).isEqualTo(isPoison ? 0 : 1);
    }
    for (OutboxRecord r : rows) {
      int once = r.messageId().equals(poison) ? 0 : 1;
      assertThat(effects.applied(r.messageId(), "completed")).isEqualTo(once);
    }
  }

  /**
   * Completes a row by writing a "completed" effect for its message in the joined transaction: the
   * effect exists only if that transaction committed.
   */
  private static final class Completions implements BatchCompletion {
    @Override
    public Completion of(List<OutboxRecord> rows) {
      return new Completion() {
        private boolean joined;

        @Override
        public void completeIn(Connection tx) {
          try {
            for (OutboxRecord row : rows) {
              EffectTable.apply(tx, row.messageId(), "completed");
            }
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
          joined = true;
        }

        @Override
        public boolean joined() {
          return joined;
        }
      };
    }

    @Override
    public boolean joined(OutboxRecord row) {
      return false;
    }
  }

  @Test
  void aRowNoConsumerTakesIsDone() throws Exception {
    InProcessEventTransport transport =
        InProcessEventTransport.of(inbox, List.of(counting("reserve-stock", "order.placed")));
    OutboxRecord other = row("order.shipped", 1);

    assertThat(transport.handle(other)).isEqualTo(Delivery.done());
    assertThat(effects.applied(other.messageId(), "reserve-stock")).isZero();
  }

  @Test
  void typesListsEveryConsumedType() {
    InProcessEventTransport transport =
        InProcessEventTransport.of(
            inbox,
            List.of(
                counting("reserve-stock", "order.placed"),
                counting("send-mail", "order.placed", "order.cancelled")));

    assertThat(transport.types()).containsExactlyInAnyOrder("order.placed", "order.cancelled");
  }

  @Test
  void aPublishedTypeIsCarriedAndDoneAtOnceUntilAConsumerTakesIt() throws Exception {
    InProcessEventTransport transport =
        InProcessEventTransport.of(
            inbox,
            List.of(counting("reserve-stock", "order.placed")),
            Set.of("payment.succeeded", "order.placed"));

    assertThat(transport.types()).containsExactlyInAnyOrder("order.placed", "payment.succeeded");
    OutboxRecord published =
        new OutboxRecord(1, UUID.randomUUID(), "payment.succeeded", "pay_1", "{}", 1, T0);
    assertThat(transport.handle(published)).isEqualTo(Delivery.done());
  }

  @Test
  void twoConsumersWithOneNameAreRefused() {
    assertThatThrownBy(
            () ->
                InProcessEventTransport.of(
                    inbox,
                    List.of(counting("send-mail", "order.placed"), counting("send-mail", "x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'send-mail'");
  }

  private static OutboxRecord row(String type, int attempt) {
    return new OutboxRecord(
        1, UUID.randomUUID(), type, "ord_" + UUID.randomUUID(), "{\"n\":1}", attempt, T0);
  }

  private static OutboxRecord withAttempt(OutboxRecord r, int attempt) {
    return new OutboxRecord(
        r.id(), r.messageId(), r.type(), r.aggregateId(), r.payloadJson(), attempt, r.createdAt());
  }

  /** A batch consumer of order.placed that records its batches' sizes and throws on poison. */
  private static InboxConsumer batching(String name, List<Integer> batchSizes, UUID poison) {
    return new BatchInboxConsumer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> types() {
        return Set.of("order.placed");
      }

      @Override
      public void consume(Connection tx, InboxMessage message) throws Exception {
        EffectTable.apply(tx, message.messageId(), name);
        if (message.messageId().equals(poison)) {
          throw new IllegalStateException("poison");
        }
      }

      @Override
      public void consumeAll(Connection tx, List<InboxMessage> messages) throws Exception {
        batchSizes.add(messages.size());
        BatchInboxConsumer.super.consumeAll(tx, messages);
      }
    };
  }

  private static InboxConsumer counting(String name, String... types) {
    return consumer(name, Set.of(types), (tx, m) -> EffectTable.apply(tx, m.messageId(), name));
  }

  interface Effect {
    void apply(Connection tx, InboxMessage message) throws Exception;
  }

  private static InboxConsumer consumer(String name, Set<String> types, Effect effect) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> types() {
        return types;
      }

      @Override
      public void consume(Connection tx, InboxMessage message) throws Exception {
        effect.apply(tx, message);
      }
    };
  }
}
