package dev.once.kafka.spring;

import static dev.once.kafka.KafkaTestSupport.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A poison record in the middle of a poll's records of one partition (eight records written in one
 * producer batch, so one fetch, one poll and one listener call hold them all): for a batch
 * consumer, the batch's transaction is rolled back as a whole; the records before the poison are
 * applied one per transaction; the poison is retried alone, in transactions of its own, and
 * dead-lettered after {@code max-attempts} deliveries; the records behind it, its own key's among
 * them, are applied after its last attempt, in order, together in one transaction. Each effect
 * once, nothing of the poison committed. A consumer that takes no batches gets one transaction per
 * record, and the poison exactly {@code max-attempts} attempts.
 */
@Timeout(120)
class PoisonInBatchTest {
  private static final int MAX_ATTEMPTS = 3;

  /** One call of the consumer: the message, and the database transaction it ran in. */
  private record Attempt(UUID id, long transaction) {}

  @Test
  void aPoisonRecordRollsItsBatchBackAndIsRetriedAloneAndTheRecordsBehindItFollowInOrder()
      throws Exception {
    Run run = run(true);
    UUID a0 = run.ids.get(0), b0 = run.ids.get(1), p0 = run.ids.get(2);
    List<UUID> behind = run.ids.subList(3, 8);

    // The first delivery: the whole poll in one transaction, up to the poison, rolled back.
    assertThat(run.attemptsAt(p0)).as("attempts at the poison").hasSize(MAX_ATTEMPTS + 1);
    long batch = run.attemptsAt(p0).get(0).transaction();
    assertThat(run.attemptsAt(a0).get(0).transaction()).isEqualTo(batch);
    assertThat(run.attemptsAt(b0).get(0).transaction()).isEqualTo(batch);
    assertThat(run.inTransaction(batch)).as("the batch's attempts").hasSize(3);
    // Then the records before the poison, each alone, and the poison alone, again and again.
    for (UUID id : List.of(a0, b0)) {
      assertThat(run.attemptsAt(id)).as("attempts at %s", id).hasSize(2);
      assertThat(run.inTransaction(run.attemptsAt(id).get(1).transaction())).hasSize(1);
    }
    for (Attempt attempt : run.attemptsAt(p0).subList(1, MAX_ATTEMPTS + 1)) {
      assertThat(run.inTransaction(attempt.transaction())).as("a retry of the poison").hasSize(1);
    }
    // The records behind it: once each, after its last attempt, in one transaction.
    int lastAtPoison = run.attempts.indexOf(run.attemptsAt(p0).get(MAX_ATTEMPTS));
    long after = run.attemptsAt(behind.get(0)).get(0).transaction();
    for (UUID id : behind) {
      assertThat(run.attemptsAt(id)).as("attempts at %s", id).hasSize(1);
      assertThat(run.attempts.indexOf(run.attemptsAt(id).get(0))).isGreaterThan(lastAtPoison);
      assertThat(run.attemptsAt(id).get(0).transaction()).isEqualTo(after);
    }
  }

  @Test
  void aConsumerThatTakesNoBatchesAppliesEachRecordInATransactionOfItsOwn() throws Exception {
    Run run = run(false);
    UUID p0 = run.ids.get(2);
    assertThat(run.attemptsAt(p0)).as("attempts at the poison").hasSize(MAX_ATTEMPTS);
    assertThat(run.attempts.stream().map(Attempt::transaction).distinct())
        .as("one transaction per attempt")
        .hasSameSizeAs(run.attempts);
    int lastAtPoison = run.attempts.indexOf(run.attemptsAt(p0).get(MAX_ATTEMPTS - 1));
    for (UUID id : run.ids) {
      if (!id.equals(p0)) {
        assertThat(run.attemptsAt(id)).as("attempts at %s", id).hasSize(1);
      }
    }
    for (UUID id : run.ids.subList(3, 8)) {
      assertThat(run.attempts.indexOf(run.attemptsAt(id).get(0))).isGreaterThan(lastAtPoison);
    }
  }

  /** What the consumer did with the eight records, and the checks both cases share. */
  private record Run(List<UUID> ids, List<Attempt> attempts) {
    List<Attempt> attemptsAt(UUID id) {
      return attempts.stream().filter(a -> a.id().equals(id)).toList();
    }

    List<Attempt> inTransaction(long transaction) {
      return attempts.stream().filter(a -> a.transaction() == transaction).toList();
    }
  }

  /**
   * Writes a0 b0 P0 a1 P1 b1 P2 c0 (P0 the poison, key p) onto a one-partition topic in one
   * producer batch, waits until the seven others are applied and the poison is dead-lettered, and
   * checks what both cases share.
   */
  private static Run run(boolean batch) throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    List<String> properties =
        TransportApps.onePartition(
            run, "test.batch=" + batch, "once.kafka.consumer.max-attempts=" + MAX_ATTEMPTS);
    try (ConfigurableApplicationContext app = TransportApps.start(properties)) {
      DataSource dataSource = app.getBean(DataSource.class);
      EffectTable effects = new EffectTable(dataSource);
      MeterRegistry registry = app.getBean(MeterRegistry.class);
      KafkaTestApplication.EffectConsumer effect =
          app.getBean(KafkaTestApplication.EffectConsumer.class);
      JdbcTemplate jdbc = new JdbcTemplate(dataSource);
      List<Attempt> attempts = new CopyOnWriteArrayList<>();
      effect.failing =
          message -> {
            // In the consumer's transaction: JdbcTemplate joins it.
            Long tx = jdbc.queryForObject("SELECT txid_current()", Long.class);
            attempts.add(new Attempt(message.messageId(), tx));
            return message.payloadJson().contains("poison");
          };

      List<String> keys = List.of("a", "b", "p", "a", "p", "b", "p", "c");
      List<UUID> ids = new ArrayList<>();
      try (KafkaProducer<String, String> producer = oneBatchProducer()) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
          UUID id = UUID.randomUUID();
          ids.add(id);
          String value = i == 2 ? "{\"poison\": true}" : "{\"n\": " + i + "}";
          sent.add(producer.send(record(type, id, keys.get(i) + "-" + run, value)));
        }
        producer.flush();
        for (Future<RecordMetadata> future : sent) {
          future.get(30, TimeUnit.SECONDS);
        }
      }
      UUID poison = ids.get(2);
      List<UUID> valid = ids.stream().filter(id -> !id.equals(poison)).toList();

      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  PoisonRecordTest.deadLetters(registry, consumer) == 1.0
                      && valid.stream().allMatch(id -> effects.applied(id, consumer) == 1));

      // Applied once each, in the order of the partition, the poison never.
      await().atMost(Duration.ofSeconds(10)).until(() -> effect.applied.size() == valid.size());
      assertThat(effect.applied.stream().map(m -> m.messageId()).toList())
          .containsExactlyElementsOf(valid);
      for (UUID id : valid) {
        assertThat(effects.applied(id, consumer)).as("effects of %s", id).isEqualTo(1);
      }
      assertThat(effects.applied(poison, consumer)).isZero();
      assertThat(KafkaTestSupport.inboxRows(dataSource, poison)).isZero();
      List<ConsumerRecord<String, String>> dead = TestBroker.readAll(type + ".dlt");
      assertThat(dead).hasSize(1);
      assertThat(header(dead.get(0), OnceHeaders.MESSAGE_ID)).isEqualTo(poison.toString());
      assertThat(header(dead.get(0), OnceHeaders.DEAD_LETTER_REASON))
          .startsWith("java.lang.IllegalStateException")
          .contains("this consumer refuses p-" + run);
      PoisonRecordTest.assertApplied(registry, consumer, 7.0);
      assertThat(TransportApps.counter(registry, consumer, "duplicate")).isZero();
      return new Run(ids, List.copyOf(attempts));
    }
  }

  /** A producer that sends nothing before {@code flush()}: the records go in one batch. */
  static KafkaProducer<String, String> oneBatchProducer() {
    return KafkaTestSupport.producer(
        Map.of(
            ProducerConfig.LINGER_MS_CONFIG, 600_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 700_000));
  }

  /** A record as {@code KafkaEventPublisher} writes it. */
  static ProducerRecord<String, String> record(String type, UUID id, String key, String value) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(OnceHeaders.MESSAGE_ID, id.toString().getBytes(StandardCharsets.UTF_8));
    headers.add(OnceHeaders.TYPE, type.getBytes(StandardCharsets.UTF_8));
    return new ProducerRecord<>(type, 0, key, value, headers);
  }
}
