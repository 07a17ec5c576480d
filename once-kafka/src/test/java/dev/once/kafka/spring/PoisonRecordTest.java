package dev.once.kafka.spring;

import static dev.once.kafka.KafkaTestSupport.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxEntry;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A record the consumer keeps refusing is tried exactly {@code max-attempts} times, then goes to
 * the dead-letter topic as it was (key, value, Once's headers) with the reason and the consumer, is
 * counted, and the records behind it on its partition are applied; a consumer that fails a few
 * times, fewer than {@code max-attempts}, applies the record once and dead-letters nothing; a
 * transient database failure is retried past {@code max-attempts} and never dead-lettered, also
 * after the record failed for good once; a record that fails for good after an outage is still
 * dead-lettered after {@code max-attempts} of its lasting failure.
 */
@Timeout(120)
class PoisonRecordTest {
  private static final int PARTITIONS = 3;

  private static ApplicationContextRunner app(String run) {
    return KafkaTransportTest.app(run)
        .withBean(SimpleMeterRegistry.class)
        .withPropertyValues(
            "once.kafka.consumer.max-attempts=3",
            // One listener thread: no rebalance between the group's members mid-test, so each
            // attempt at the poison record is one of the error handler's.
            "once.kafka.consumer.concurrency=1",
            "once.kafka.consumer.initial-delay=100ms",
            "once.kafka.consumer.max-delay=100ms");
  }

  @Test
  void aRecordRefusedMaxAttemptsTimesIsDeadLetteredAndThePartitionGoesOn() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    String poisonKey = "poison-" + run;
    String sameKeyLater = poisonKey;
    String samePartition =
        KafkaTestSupport.otherKeyOnPartitionOf(poisonKey, "same-" + run + "-", PARTITIONS);
    String otherPartition =
        KafkaTestSupport.keyOnOtherPartitionThan(poisonKey, "other-" + run + "-", PARTITIONS);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              KafkaTestApplication.EffectConsumer effect =
                  context.getBean(KafkaTestApplication.EffectConsumer.class);
              KafkaTestApplication.Events events =
                  context.getBean(KafkaTestApplication.Events.class);
              AtomicInteger attempts = new AtomicInteger();
              effect.failing =
                  message ->
                      message.payloadJson().contains("poison") && attempts.incrementAndGet() > 0;

              OutboxEntry poison = events.publish(type, poisonKey, "{\"poison\": true}");
              // The poison record is on the topic and being retried before the others are sent,
              // so they are behind it on its partition.
              await().atMost(Duration.ofSeconds(30)).until(() -> attempts.get() >= 1);
              OutboxEntry later = events.publish(type, sameKeyLater, "{\"n\": 2}");
              OutboxEntry neighbour = events.publish(type, samePartition, "{\"n\": 3}");
              OutboxEntry elsewhere = events.publish(type, otherPartition, "{\"n\": 4}");

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(
                      () ->
                          effects.applied(later.messageId(), consumer) == 1
                              && effects.applied(neighbour.messageId(), consumer) == 1
                              && effects.applied(elsewhere.messageId(), consumer) == 1);
              List<ConsumerRecord<String, String>> dead = TestBroker.readAll(type + ".dlt");

              assertThat(attempts.get()).as("attempts at the poison record").isEqualTo(3);
              assertThat(dead).hasSize(1);
              ConsumerRecord<String, String> letter = dead.get(0);
              assertThat(letter.key()).isEqualTo(poisonKey);
              assertThat(letter.value()).isEqualTo("{\"poison\": true}");
              assertThat(header(letter, OnceHeaders.MESSAGE_ID))
                  .isEqualTo(poison.messageId().toString());
              assertThat(header(letter, OnceHeaders.TYPE)).isEqualTo(type);
              assertThat(header(letter, OnceHeaders.DEAD_LETTER_CONSUMER)).isEqualTo(consumer);
              assertThat(header(letter, OnceHeaders.DEAD_LETTER_REASON))
                  .startsWith("java.lang.IllegalStateException")
                  .contains("this consumer refuses " + poisonKey);
              // Nothing of the refused record committed.
              assertThat(effects.applied(poison.messageId(), consumer)).isZero();
              assertThat(KafkaTestSupport.inboxRows(ds, poison.messageId())).isZero();

              // The records behind it were on its partition, after it.
              List<ConsumerRecord<String, String>> records = TestBroker.readAll(type);
              ConsumerRecord<String, String> first = recordOf(records, poison);
              assertThat(recordOf(records, later).partition()).isEqualTo(first.partition());
              assertThat(recordOf(records, later).offset()).isGreaterThan(first.offset());
              assertThat(recordOf(records, neighbour).partition()).isEqualTo(first.partition());
              assertThat(recordOf(records, neighbour).offset()).isGreaterThan(first.offset());

              assertThat(
                      registry
                          .get("once.kafka.consumer.dead.letters")
                          .tags("consumer", consumer, "topic", type)
                          .counter()
                          .count())
                  .isEqualTo(1.0);
              assertApplied(registry, consumer, 3.0);
            });
  }

  @Test
  void aConsumerThatFailsFewerThanMaxAttemptsTimesAppliesTheRecordOnceAndDeadLettersNothing() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              KafkaTestApplication.EffectConsumer effect =
                  context.getBean(KafkaTestApplication.EffectConsumer.class);
              AtomicInteger attempts = new AtomicInteger();
              // Fails twice: the third and last allowed attempt succeeds.
              effect.failing = message -> attempts.incrementAndGet() <= 2;

              OutboxEntry entry =
                  context
                      .getBean(KafkaTestApplication.Events.class)
                      .publish(type, "flaky-" + run, "{\"n\": 1}");

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> effects.applied(entry.messageId(), consumer) == 1);
              assertThat(attempts.get()).isEqualTo(3);
              assertThat(TestBroker.readAll(type + ".dlt")).isEmpty();
              assertThat(effects.applied(entry.messageId(), consumer)).isEqualTo(1);
              assertThat(KafkaTestSupport.inboxRows(ds, entry.messageId())).isEqualTo(1);
              assertThat(deadLetters(registry, consumer)).isZero();
              assertApplied(registry, consumer, 1.0);
            });
  }

  @Test
  void aTransientDatabaseFailureIsRetriedPastMaxAttemptsAndNeverDeadLettered() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              KafkaTestApplication.EffectConsumer effect =
                  context.getBean(KafkaTestApplication.EffectConsumer.class);
              AtomicInteger attempts = new AtomicInteger();
              // Twice max-attempts failures of a lost connection, then the database is back.
              effect.failing =
                  message -> {
                    if (attempts.incrementAndGet() <= 6) {
                      throw KafkaTestSupport.sneakyThrow(
                          new SQLTransientConnectionException(
                              "connection to the database lost", "08006"));
                    }
                    return false;
                  };

              OutboxEntry entry =
                  context
                      .getBean(KafkaTestApplication.Events.class)
                      .publish(type, "outage-" + run, "{\"n\": 1}");

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> effects.applied(entry.messageId(), consumer) == 1);
              assertThat(attempts.get()).isEqualTo(7);
              assertThat(TestBroker.readAll(type + ".dlt")).isEmpty();
              assertThat(effects.applied(entry.messageId(), consumer)).isEqualTo(1);
              assertThat(KafkaTestSupport.inboxRows(ds, entry.messageId())).isEqualTo(1);
              assertThat(deadLetters(registry, consumer)).isZero();
            });
  }

  @Test
  void aRecordThatFailedForGoodOnceIsNotDeadLetteredDuringALaterOutage() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              AtomicInteger attempts = new AtomicInteger();
              // A check violation once, then the database is unavailable for twice max-attempts.
              context.getBean(KafkaTestApplication.EffectConsumer.class).failing =
                  message -> {
                    int attempt = attempts.incrementAndGet();
                    if (attempt == 1) {
                      throw KafkaTestSupport.sneakyThrow(
                          new SQLException("violates check constraint", "23514"));
                    }
                    if (attempt <= 7) {
                      throw KafkaTestSupport.sneakyThrow(
                          new SQLTransientConnectionException(
                              "connection to the database lost", "08006"));
                    }
                    return false;
                  };

              OutboxEntry entry =
                  context
                      .getBean(KafkaTestApplication.Events.class)
                      .publish(type, "then-outage-" + run, "{\"n\": 1}");

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(
                      () ->
                          effects.applied(entry.messageId(), consumer) == 1
                              || deadLetters(registry, consumer) > 0);
              assertThat(deadLetters(registry, consumer)).isZero();
              assertThat(effects.applied(entry.messageId(), consumer)).isEqualTo(1);
              assertThat(attempts.get()).isEqualTo(8);
              assertThat(TestBroker.readAll(type + ".dlt")).isEmpty();
            });
  }

  @Test
  void aRecordThatFailsForGoodAfterAnOutageIsDeadLetteredAfterMaxAttempts() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              AtomicInteger attempts = new AtomicInteger();
              // The database is unavailable twice, then the record fails for good.
              context.getBean(KafkaTestApplication.EffectConsumer.class).failing =
                  message -> {
                    if (attempts.incrementAndGet() <= 2) {
                      throw KafkaTestSupport.sneakyThrow(
                          new SQLTransientConnectionException(
                              "connection to the database lost", "08006"));
                    }
                    throw KafkaTestSupport.sneakyThrow(
                        new SQLException("violates check constraint", "23514"));
                  };

              context
                  .getBean(KafkaTestApplication.Events.class)
                  .publish(type, "outage-then-" + run, "{\"n\": 1}");

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> deadLetters(registry, consumer) == 1.0);
              // Two transient attempts, then max-attempts (3) for the lasting failure.
              assertThat(attempts.get()).isEqualTo(5);
              List<ConsumerRecord<String, String>> dead = TestBroker.readAll(type + ".dlt");
              assertThat(dead).hasSize(1);
              assertThat(header(dead.get(0), OnceHeaders.DEAD_LETTER_REASON))
                  .startsWith("java.sql.SQLException: violates check constraint");
            });
  }

  private static ConsumerRecord<String, String> recordOf(
      List<ConsumerRecord<String, String>> records, OutboxEntry entry) {
    return records.stream()
        .filter(r -> entry.messageId().toString().equals(header(r, OnceHeaders.MESSAGE_ID)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no record of " + entry.messageId()));
  }

  /**
   * Waits until the consumer's applied counter reaches {@code expected} and requires exactly that:
   * the counter is counted after the transaction commits, so an effect in the database may be seen
   * a moment before its count.
   */
  static void assertApplied(MeterRegistry registry, String consumer, double expected) {
    await().atMost(Duration.ofSeconds(10)).until(() -> applied(registry, consumer) >= expected);
    assertThat(applied(registry, consumer)).isEqualTo(expected);
  }

  static double applied(MeterRegistry registry, String consumer) {
    Counter counter =
        registry
            .find("once.kafka.consumer.records")
            .tags("consumer", consumer, "outcome", "applied")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  static double deadLetters(MeterRegistry registry, String consumer) {
    Counter counter =
        registry.find("once.kafka.consumer.dead.letters").tags("consumer", consumer).counter();
    return counter == null ? 0 : counter.count();
  }
}
