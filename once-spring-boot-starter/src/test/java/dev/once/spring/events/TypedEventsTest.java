package dev.once.spring.events;

import static dev.once.spring.events.TypedEventsApplication.CONSUMER;
import static dev.once.spring.events.TypedEventsApplication.ITEM_ADDED;
import static dev.once.spring.events.TypedEventsApplication.ITEM_REMOVED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.events.InProcessEventTransport;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Delivery;
import dev.once.outbox.NotBefore;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.spring.events.TypedEventsApplication.Call;
import dev.once.spring.events.TypedEventsApplication.ItemAdded;
import dev.once.spring.events.TypedEventsApplication.ItemRemoved;
import dev.once.spring.events.TypedEventsApplication.NotAnEvent;
import dev.once.spring.events.TypedEventsApplication.Stock;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Typed events on a real PostgreSQL: {@link OnceEvents} publishes in the caller's transaction, and
 * {@link OnceListener} methods are inbox consumers that apply each event once, in a transaction
 * shared with their inbox record, refusing what they cannot read before they run.
 */
@Timeout(60)
class TypedEventsTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class,
                  JacksonAutoConfiguration.class))
          .withUserConfiguration(TypedEventsApplication.class)
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres",
              "once.outbox.relay.enabled=false");

  @Test
  void publishWritesTheRecordsJsonWithItsVersionInTheCallersTransactionOnly() {
    runner.run(
        context -> {
          OnceEvents events = context.getBean(OnceEvents.class);
          TransactionTemplate transactions = transactions(context);
          JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
          String rolledBack = "agg-" + UUID.randomUUID();
          String committed = "agg-" + UUID.randomUUID();

          transactions.executeWithoutResult(
              status -> {
                assertThat(events.publish(rolledBack, new ItemAdded("a", 2))).isPresent();
                status.setRollbackOnly();
              });
          transactions.executeWithoutResult(
              status -> {
                events.publish(committed, new ItemAdded("a", 2));
                events.publish(committed, new ItemRemoved("a"));
              });

          assertThat(payloads(jdbc, rolledBack)).as("rolled back with its transaction").isEmpty();
          // (jsonb orders members by length; the publisher wrote "@version" first)
          assertThat(payloads(jdbc, committed))
              .containsExactly(
                  ITEM_ADDED + " {\"itemId\": \"a\", \"@version\": 2, \"quantity\": 2}",
                  ITEM_REMOVED + " {\"itemId\": \"a\"}");
          assertThatThrownBy(() -> events.publish(committed, new ItemRemoved("a")))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("needs an active transaction");
          assertThatThrownBy(
                  () ->
                      transactions.executeWithoutResult(
                          status -> events.publish(committed, new NotAnEvent("a"))))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining(NotAnEvent.class.getName())
              .hasMessageContaining("@OnceEvent");
          assertThat(payloads(jdbc, committed)).hasSize(2);
        });
  }

  /**
   * publishAll: the events of a batch in one round trip, each written as publish writes it, in
   * order, in the caller's transaction only; an event that is no event refuses the whole batch
   * before anything is appended.
   */
  @Test
  void publishAllWritesEachEventAsPublishDoesInOrder() {
    runner.run(
        context -> {
          OnceEvents events = context.getBean(OnceEvents.class);
          TransactionTemplate transactions = transactions(context);
          JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
          String first = "agg-" + UUID.randomUUID();
          String second = "agg-" + UUID.randomUUID();
          List<Object> batch =
              List.of(new ItemAdded("a", 2), new ItemRemoved("a"), new ItemAdded("b", 1));
          Function<Object, String> aggregate =
              event -> event instanceof ItemRemoved ? second : first;

          transactions.executeWithoutResult(
              status -> {
                assertThat(events.publishAll(batch, aggregate)).hasSize(3);
                status.setRollbackOnly();
              });
          assertThat(payloads(jdbc, first)).as("rolled back with its transaction").isEmpty();

          List<Optional<OutboxEntry>> entries =
              transactions.execute(status -> events.publishAll(batch, aggregate));
          assertThat(entries).hasSize(3).allSatisfy(entry -> assertThat(entry).isPresent());
          assertThat(entries.stream().map(entry -> entry.orElseThrow().id()).toList()).isSorted();
          assertThat(payloads(jdbc, first))
              .containsExactly(
                  ITEM_ADDED + " {\"itemId\": \"a\", \"@version\": 2, \"quantity\": 2}",
                  ITEM_ADDED + " {\"itemId\": \"b\", \"@version\": 2, \"quantity\": 1}");
          assertThat(payloads(jdbc, second)).containsExactly(ITEM_REMOVED + " {\"itemId\": \"a\"}");

          assertThatThrownBy(() -> events.publishAll(batch, aggregate))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("needs an active transaction");
          assertThatThrownBy(
                  () ->
                      transactions.executeWithoutResult(
                          status ->
                              events.publishAll(
                                  List.of(new ItemAdded("c", 1), new NotAnEvent("c")),
                                  event -> first)))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("@OnceEvent");
          assertThat(payloads(jdbc, first)).hasSize(2);
        });
  }

  /** Delayed delivery: the row is due its delay after the append, or at the instant given. */
  @Test
  void anEventPublishedWithNotBeforeIsDueThen() {
    runner.run(
        context -> {
          OnceEvents events = context.getBean(OnceEvents.class);
          JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
          String aggregate = "agg-" + UUID.randomUUID();
          Instant at = Instant.parse("2100-01-01T00:00:00Z");

          transactions(context)
              .executeWithoutResult(
                  status -> {
                    events.publish(
                        aggregate, new ItemAdded("a", 1), NotBefore.after(Duration.ofDays(1)));
                    events.publish(aggregate, new ItemRemoved("a"), NotBefore.at(at));
                    events.publish(aggregate, new ItemAdded("b", 1), null);
                  });

          assertThat(
                  jdbc.sql(
                          """
                          SELECT next_attempt_at - created_at FROM once.outbox
                          WHERE aggregate_id = ? ORDER BY id
                          """)
                      .param(aggregate)
                      .query((rs, n) -> rs.getString(1))
                      .list())
              .as("from the append until due")
              .hasSize(3)
              .satisfies(due -> assertThat(due.get(0)).isEqualTo("1 day"))
              .satisfies(due -> assertThat(due.get(2)).isEqualTo("00:00:00"));
          assertThat(
                  jdbc.sql(
                          "SELECT next_attempt_at FROM once.outbox WHERE aggregate_id = ?"
                              + " ORDER BY id OFFSET 1 LIMIT 1")
                      .param(aggregate)
                      .query(java.time.OffsetDateTime.class)
                      .single()
                      .toInstant())
              .as("due at the instant given")
              .isEqualTo(at);
        });
  }

  @Test
  void theListenersAreOneInboxConsumerAndTheEventTypesArePublished() {
    runner.run(
        context -> {
          InboxConsumer consumer = consumer(context);
          assertThat(consumer.types()).containsExactlyInAnyOrder(ITEM_ADDED, ITEM_REMOVED);
          assertThat(context.getBean(InProcessEventTransport.class).types())
              .contains(ITEM_ADDED, ITEM_REMOVED);
          assertThat(context.getBean(PublishedEventTypes.class).names())
              .containsExactly(ITEM_ADDED, ITEM_REMOVED);
        });
  }

  @Test
  void anEventDeliveredTwiceIsAppliedOnce() {
    runner.run(
        context -> {
          Inbox inbox = context.getBean(Inbox.class);
          EffectTable effects = new EffectTable(context.getBean(DataSource.class));
          InboxMessage message = added("{\"@version\":2,\"itemId\":\"a\",\"quantity\":3}");

          assertThat(inbox.deliver(consumer(context), message)).isTrue();
          assertThat(inbox.deliver(consumer(context), message)).as("inbox duplicate").isFalse();

          assertThat(effects.applied(message.messageId(), CONSUMER)).isEqualTo(1);
          List<Call> calls = context.getBean(Stock.class).calls;
          assertThat(calls).hasSize(1);
          assertThat(calls.get(0).event()).isEqualTo(new ItemAdded("a", 3));
          assertThat(calls.get(0).metadata())
              .isEqualTo(new EventMetadata(message.messageId(), ITEM_ADDED, "agg-1", 2));
        });
  }

  @Test
  void anEventDeliveredConcurrentlyIsAppliedOnce() {
    runner.run(
        context -> {
          Inbox inbox = context.getBean(Inbox.class);
          InboxConsumer consumer = consumer(context);
          EffectTable effects = new EffectTable(context.getBean(DataSource.class));
          InboxMessage message = added("{\"@version\":2,\"itemId\":\"a\",\"quantity\":1}");
          int threads = 8;
          CountDownLatch start = new CountDownLatch(1);
          ExecutorService pool = Executors.newFixedThreadPool(threads);
          try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
              results.add(
                  pool.submit(
                      () -> {
                        start.await();
                        return inbox.deliver(consumer, message);
                      }));
            }
            start.countDown();
            int applied = 0;
            for (Future<Boolean> result : results) {
              applied += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(applied).isEqualTo(1);
          } finally {
            pool.shutdownNow();
          }
          assertThat(effects.applied(message.messageId(), CONSUMER)).isEqualTo(1);
          assertThat(context.getBean(Stock.class).calls).hasSize(1);
        });
  }

  @Test
  void aListenerThatThrowsRollsBackItsWritesAndItsInboxRecord() {
    runner.run(
        context -> {
          Inbox inbox = context.getBean(Inbox.class);
          EffectTable effects = new EffectTable(context.getBean(DataSource.class));
          InboxMessage message = added("{\"@version\":2,\"itemId\":\"fail\",\"quantity\":1}");

          assertThatThrownBy(() -> inbox.deliver(consumer(context), message))
              .isInstanceOf(IllegalStateException.class)
              .hasMessage("warehouse down");

          assertThat(context.getBean(Stock.class).calls).as("it ran").hasSize(1);
          assertThat(effects.applied(message.messageId(), CONSUMER)).isZero();
          assertThat(records(context, message)).isZero();
        });
  }

  @Test
  void anEventNewerThanTheListenersRecordFailsClearlyAndStaysUnconsumed() {
    runner.run(
        context -> {
          Inbox inbox = context.getBean(Inbox.class);
          InboxMessage message = added("{\"@version\":3,\"itemId\":\"a\",\"quantity\":1}");

          assertThatThrownBy(() -> inbox.deliver(consumer(context), message))
              .isInstanceOf(EventVersionException.class)
              .hasMessageContaining("Event " + ITEM_ADDED + " version 3")
              .hasMessageContaining("consumer " + CONSUMER)
              .hasMessageContaining("is version 2");

          assertThat(context.getBean(Stock.class).calls).isEmpty();
          assertThat(records(context, message)).isZero();
          // Through the in-process transport: retried, so the relay dead-letters it in the end.
          Delivery delivery = context.getBean(InProcessEventTransport.class).handle(row(message));
          assertThat(delivery.toString())
              .startsWith("Retry")
              .contains(CONSUMER)
              .contains(EventVersionException.class.getName());
          assertThat(records(context, message)).isZero();
        });
  }

  @Test
  void anOlderVersionIsUpcastStepByStep() {
    runner.run(
        context -> {
          InboxMessage message = added("{\"item\":\"old\"}");

          assertThat(context.getBean(Inbox.class).deliver(consumer(context), message)).isTrue();

          Call call = context.getBean(Stock.class).calls.get(0);
          assertThat(call.event()).isEqualTo(new ItemAdded("old", 1));
          assertThat(call.metadata().version()).as("as published").isEqualTo(1);
        });
  }

  @Test
  void readGivesAHandWrittenConsumerTheEventAsAListenerGetsIt() {
    runner.run(
        context -> {
          OnceEvents events = context.getBean(OnceEvents.class);

          assertThat(events.read(ItemAdded.class, added("{\"item\":\"old\"}"), "mine"))
              .as("version 1, upcast")
              .isEqualTo(new ItemAdded("old", 1));
          assertThat(
                  events.read(
                      ItemAdded.class,
                      added("{\"@version\":2,\"itemId\":\"a\",\"quantity\":3}"),
                      "mine"))
              .isEqualTo(new ItemAdded("a", 3));
          InboxMessage unreadable = added("{\"@version\":2,\"itemId\":\"a\"}");
          assertThatThrownBy(() -> events.read(ItemAdded.class, unreadable, "mine"))
              .isInstanceOf(EventPayloadException.class)
              .hasMessageContaining(unreadable.messageId().toString())
              .hasMessageContaining("consumer mine");
          assertThatThrownBy(
                  () ->
                      events.read(
                          ItemAdded.class,
                          added("{\"@version\":3,\"itemId\":\"a\",\"quantity\":3}"),
                          "mine"))
              .isInstanceOf(EventVersionException.class);
          assertThatThrownBy(
                  () -> events.read(ItemRemoved.class, added("{\"itemId\":\"a\"}"), "mine"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("not a " + ITEM_REMOVED);
        });
  }

  @Test
  void aPayloadThatDoesNotReadIntoTheRecordFailsAndStaysUnconsumed() {
    runner.run(
        context -> {
          Inbox inbox = context.getBean(Inbox.class);
          for (String payload :
              List.of(
                  "not json",
                  "[1]",
                  "{\"@version\":2,\"itemId\":\"a\",\"quantity\":1} {}",
                  "{\"@version\":2,\"itemId\":\"a\",\"itemId\":\"b\",\"quantity\":1}",
                  "{\"@version\":2,\"itemId\":\"a\"}",
                  "{\"@version\":2,\"itemId\":\"a\",\"quantity\":\"many\"}",
                  "{\"@version\":2,\"itemId\":\"\",\"quantity\":1}",
                  "{\"@version\":\"2\",\"itemId\":\"a\",\"quantity\":1}",
                  "{\"@version\":0,\"itemId\":\"a\",\"quantity\":1}")) {
            InboxMessage message = added(payload);
            assertThatThrownBy(() -> inbox.deliver(consumer(context), message))
                .as(payload)
                .isInstanceOf(EventPayloadException.class)
                .hasMessageContaining("event " + ITEM_ADDED)
                .hasMessageContaining(message.messageId().toString())
                .hasMessageContaining("consumer " + CONSUMER);
            assertThat(records(context, message)).as(payload).isZero();
          }
          assertThat(context.getBean(Stock.class).calls).isEmpty();
        });
  }

  @Test
  void twoListenersOfOneConsumerForOneEventFailTheStart() {
    runner
        .withUserConfiguration(DuplicateListener.class)
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .hasMessageContaining("Consumer " + CONSUMER)
                    .hasMessageContaining("two @OnceListener methods for event " + ITEM_REMOVED));
  }

  @Test
  void aListenerWhoseParameterIsNoEventFailsTheStart() {
    runner
        .withBean(NoEventListener.class)
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .hasMessageContaining("@OnceListener method")
                    .hasMessageContaining(NotAnEvent.class.getName()));
  }

  @Test
  void aListenerHiddenBehindItsBeansDeclaredTypeFailsTheStart() {
    runner
        .withUserConfiguration(HiddenListener.class)
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .hasStackTraceContaining("@OnceListener methods that Once did not register")
                    .hasStackTraceContaining("Hidden.on(ItemRemoved) of bean hidden"));
  }

  @Test
  void eventsPublishedWithTheRelayOnReachTheListener() {
    runner
        .withPropertyValues("once.outbox.relay.enabled=true", "once.outbox.relay.pool-size=0")
        .run(
            context -> {
              Stock stock = context.getBean(Stock.class);
              String aggregate = "agg-" + UUID.randomUUID();
              transactions(context)
                  .executeWithoutResult(
                      status ->
                          context
                              .getBean(OnceEvents.class)
                              .publish(aggregate, new ItemRemoved("relayed")));
              // The relay delivers it after the commit; no sleep: wait for the call itself.
              while (stock.calls.stream()
                  .noneMatch(c -> c.event().equals(new ItemRemoved("relayed")))) {
                Thread.onSpinWait();
              }
              assertThat(stock.calls)
                  .filteredOn(c -> c.event().equals(new ItemRemoved("relayed")))
                  .hasSize(1);
            });
  }

  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class DuplicateListener {
    @org.springframework.context.annotation.Bean
    Other other() {
      return new Other();
    }

    static class Other {
      @OnceListener(consumer = CONSUMER)
      void again(ItemRemoved removed) {}
    }
  }

  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class HiddenListener {
    @org.springframework.context.annotation.Bean
    Object hidden() {
      return new Hidden();
    }

    static class Hidden {
      @OnceListener(consumer = "hidden")
      void on(ItemRemoved removed) {}
    }
  }

  static class NoEventListener {
    @OnceListener(consumer = "no-event")
    void on(NotAnEvent event) {}
  }

  private static InboxMessage added(String payload) {
    return new InboxMessage(UUID.randomUUID(), ITEM_ADDED, "agg-1", payload);
  }

  private static OutboxRecord row(InboxMessage message) {
    return new OutboxRecord(
        1,
        message.messageId(),
        message.type(),
        message.aggregateId(),
        message.payloadJson(),
        1,
        Instant.now());
  }

  private static InboxConsumer consumer(ApplicationContext context) {
    return context.getBean("onceListener:" + CONSUMER, InboxConsumer.class);
  }

  private static TransactionTemplate transactions(ApplicationContext context) {
    return new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
  }

  private static List<String> payloads(JdbcClient jdbc, String aggregate) {
    return jdbc.sql(
            "SELECT type || ' ' || payload::text FROM once.outbox WHERE aggregate_id = ? ORDER BY id")
        .param(aggregate)
        .query(String.class)
        .list();
  }

  private static long records(ApplicationContext context, InboxMessage message) {
    return JdbcClient.create(context.getBean(DataSource.class))
        .sql("SELECT count(*) FROM once.inbox WHERE message_id = ?")
        .param(message.messageId())
        .query(Long.class)
        .single();
  }
}
