package dev.once.kafka.spring;

import static dev.once.kafka.KafkaTestSupport.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.spring.events.EventMetadata;
import dev.once.spring.events.EventVersionException;
import dev.once.spring.events.OnceEvent;
import dev.once.spring.events.OnceEvents;
import dev.once.spring.events.OnceListener;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.testing.EffectTable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A typed listener is a Kafka consumer group like any inbox consumer: a published record comes back
 * through the broker and is applied once; an event of a version newer than its record is retried,
 * then dead-lettered with the consumer and the reason, nothing applied, and the partition goes on.
 */
@Timeout(120)
class TypedKafkaEventsTest {
  static final String SHIPPED = "test.kafka.typed.shipped";
  static final String CONSUMER = "typed-shipping";

  @OnceEvent(name = SHIPPED)
  public record Shipped(String parcelId) {}

  @Configuration(proxyBeanMethods = false)
  static class Shipping {
    @Bean
    Listener listener(DataSource dataSource) {
      return new Listener(new JdbcTemplate(dataSource));
    }
  }

  static class Listener {
    final List<Shipped> applied = new CopyOnWriteArrayList<>();
    private final JdbcTemplate jdbc;

    Listener(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnceListener(consumer = CONSUMER)
    void on(Shipped shipped, EventMetadata metadata) {
      jdbc.update(EffectTable.APPLY, metadata.messageId(), CONSUMER);
      applied.add(shipped);
    }
  }

  @Test
  void aTypedListenerReadsFromKafkaOnceAndAnUnknownVersionIsDeadLettered() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .withUserConfiguration(Shipping.class)
        .withPropertyValues(
            "once.kafka.consumer.max-attempts=2", "once.kafka.consumer.concurrency=1")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              Listener listener = context.getBean(Listener.class);
              TransactionTemplate transactions =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
              OnceEvents events = context.getBean(OnceEvents.class);
              String key = "parcel-" + run;

              OutboxEntry first =
                  transactions.execute(
                      status -> events.publish(key, new Shipped("p1-" + run)).orElseThrow());
              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> effects.applied(first.messageId(), CONSUMER) == 1);

              // A publisher of a version this listener does not know yet.
              OutboxEntry newer =
                  transactions.execute(
                      status ->
                          context
                              .getBean(TransactionalOutbox.class)
                              .publish(
                                  new OutboxMessage(
                                      SHIPPED,
                                      key,
                                      "{\"@version\": 5, \"parcelId\": \"p2-" + run + "\"}"))
                              .orElseThrow());
              OutboxEntry after =
                  transactions.execute(
                      status -> events.publish(key, new Shipped("p3-" + run)).orElseThrow());

              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> effects.applied(after.messageId(), CONSUMER) == 1);
              List<ConsumerRecord<String, String>> dead = TestBroker.readAll(SHIPPED + ".dlt");
              assertThat(dead).hasSize(1);
              ConsumerRecord<String, String> letter = dead.get(0);
              assertThat(header(letter, OnceHeaders.MESSAGE_ID))
                  .isEqualTo(newer.messageId().toString());
              assertThat(header(letter, OnceHeaders.DEAD_LETTER_CONSUMER)).isEqualTo(CONSUMER);
              assertThat(header(letter, OnceHeaders.DEAD_LETTER_REASON))
                  .startsWith(EventVersionException.class.getName())
                  .contains("version 5")
                  .contains("consumer " + CONSUMER);
              assertThat(effects.applied(newer.messageId(), CONSUMER)).isZero();
              assertThat(KafkaTestSupport.inboxRows(ds, newer.messageId())).isZero();
              assertThat(listener.applied)
                  .containsExactly(new Shipped("p1-" + run), new Shipped("p3-" + run));
              assertThat(TestBroker.readAll(SHIPPED).get(0).value())
                  .as("the record's own JSON on the topic")
                  .isEqualTo("{\"parcelId\": \"p1-" + run + "\"}");
            });
  }

  static final String ANNOUNCED = "test.kafka.typed.announced";

  /** An event for other services: nothing in this application listens to it. */
  @OnceEvent(name = ANNOUNCED)
  public record Announced(String text) {}

  /** A service that only publishes: its application package holds the event record. */
  @Configuration(proxyBeanMethods = false)
  @AutoConfigurationPackage
  static class PublishOnly {}

  /**
   * With Kafka, an event no consumer of this application takes is still written and published:
   * other services read the topic. (Without a broker it would be written for nobody.)
   */
  @Test
  void anEventNoLocalListenerTakesStillReachesItsTopic() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .withUserConfiguration(PublishOnly.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              TransactionTemplate transactions =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
              OnceEvents events = context.getBean(OnceEvents.class);

              OutboxEntry entry =
                  transactions.execute(
                      status ->
                          events
                              .publish("news-" + run, new Announced("hello " + run))
                              .orElseThrow(() -> new AssertionError("the event was not written")));

              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(
                      () ->
                          TestBroker.readAll(ANNOUNCED).stream()
                              .anyMatch(
                                  r ->
                                      entry
                                          .messageId()
                                          .toString()
                                          .equals(header(r, OnceHeaders.MESSAGE_ID))));
            });
  }
}
