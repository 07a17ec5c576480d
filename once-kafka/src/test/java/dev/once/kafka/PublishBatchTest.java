package dev.once.kafka;

import static dev.once.kafka.KafkaTestSupport.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.kafka.FaultyProducer.Fault;
import dev.once.outbox.BatchCompletion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.postgres.WalFlush;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The publisher's batch path on a real broker ({@code handleAll}, as the relay calls it with a
 * claim's rows of one type): one WAL flush (a real one, on the test database) for the whole batch;
 * every row's record sent; per row, done for an acknowledged record, dead for a record too large
 * (for the producer, or for the broker) and retry for a send that fails or is never acknowledged,
 * each alone, while every other row of the batch is done and on its topic once.
 */
@Timeout(120)
class PublishBatchTest {

  @Test
  void aRecordTooLargeForTheProducerIsDeadAloneAndTheOthersAreDone() throws Exception {
    tooLargeIsDeadAlone(Map.of(), 2 * 1024 * 1024);
  }

  @Test
  void aRecordTooLargeForTheBrokerIsDeadAloneAndTheOthersAreDone() throws Exception {
    // The producer takes up to 4 MiB; the broker's message.max.bytes is its default, about 1 MiB.
    tooLargeIsDeadAlone(
        Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024), 1536 * 1024);
  }

  private void tooLargeIsDeadAlone(Map<String, Object> producerConfig, int size) throws Exception {
    String type = "test.batch." + TestBroker.run();
    KafkaTestSupport.createTopic(type, 3);
    List<OutboxRecord> rows = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String payload = i == 2 ? "{\"big\": \"" + "x".repeat(size) + "\"}" : "{\"n\": " + i + "}";
      rows.add(row(i, type, "agg-" + i, payload));
    }
    CountingFlush flush = new CountingFlush();
    Outcomes heard = new Outcomes();
    try (KafkaProducer<String, String> real = producer(producerConfig)) {
      FaultyProducer producer = new FaultyProducer(real, record -> Fault.NONE);
      List<Delivery> deliveries =
          publisher(producer, type, flush, heard).handleAll(rows, BatchCompletion.NONE);

      assertThat(deliveries).hasSize(5);
      for (int i = 0; i < 5; i++) {
        if (i == 2) {
          assertThat(deliveries.get(i)).as("row %s", i).isInstanceOf(Delivery.Dead.class);
          assertThat(((Delivery.Dead) deliveries.get(i)).reason())
              .contains("RecordTooLargeException");
        } else {
          assertThat(deliveries.get(i)).as("row %s", i).isEqualTo(Delivery.done());
        }
      }
      assertThat(flush.calls.get()).as("WAL flushes for the batch").isEqualTo(1);
      assertThat(producer.sends()).as("sends").hasSize(5);
    }
    assertThat(heard.published).hasSize(4);
    assertThat(heard.failed).containsExactly(type);
    assertThat(TestBroker.readAll(type))
        .extracting(r -> header(r, OnceHeaders.MESSAGE_ID))
        .containsExactlyInAnyOrder(
            ids(rows.get(0), rows.get(1), rows.get(3), rows.get(4)).toArray(String[]::new));
  }

  @Test
  void aFailedSendAndALostAcknowledgementAreRetriesAloneAndTheOthersAreDone() throws Exception {
    String type = "test.batch." + TestBroker.run();
    KafkaTestSupport.createTopic(type, 3);
    List<OutboxRecord> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      rows.add(row(i, type, "agg-" + i, "{\"n\": " + i + "}"));
    }
    Map<String, Fault> faults =
        Map.of(
            rows.get(1).messageId().toString(), Fault.FAIL,
            rows.get(3).messageId().toString(), Fault.THROW,
            rows.get(4).messageId().toString(), Fault.LOSE_ACK);
    Function<ProducerRecord<String, String>, Fault> script =
        record -> faults.getOrDefault(FaultyProducer.messageId(record), Fault.NONE);
    CountingFlush flush = new CountingFlush();
    Outcomes heard = new Outcomes();
    try (KafkaProducer<String, String> real = producer(Map.of())) {
      List<Delivery> deliveries =
          publisher(new FaultyProducer(real, script), type, flush, heard)
              .handleAll(rows, BatchCompletion.NONE);

      assertThat(deliveries.get(0)).isEqualTo(Delivery.done());
      assertThat(deliveries.get(1)).isInstanceOf(Delivery.Retry.class);
      assertThat(deliveries.get(2)).isEqualTo(Delivery.done());
      assertThat(deliveries.get(3)).isInstanceOf(Delivery.Retry.class);
      assertThat(deliveries.get(4)).isInstanceOf(Delivery.Retry.class);
      assertThat(((Delivery.Retry) deliveries.get(4)).reason()).contains("no acknowledgement");
      assertThat(deliveries.get(5)).isEqualTo(Delivery.done());
      assertThat(flush.calls.get()).as("WAL flushes for the batch").isEqualTo(1);
    }
    assertThat(heard.published).hasSize(3);
    assertThat(heard.failed).hasSize(3);
    // The lost acknowledgement's record reached the topic: a duplicate for the inbox, once retried.
    assertThat(TestBroker.readAll(type))
        .extracting(r -> header(r, OnceHeaders.MESSAGE_ID))
        .containsExactlyInAnyOrder(
            ids(rows.get(0), rows.get(2), rows.get(4), rows.get(5)).toArray(String[]::new));
  }

  private static KafkaEventPublisher publisher(
      FaultyProducer producer, String type, WalFlush flush, PublishListener listener) {
    return new KafkaEventPublisher(
        producer,
        EventTopics.of(Map.of(), ".dlt"),
        Set.of(type),
        Duration.ofSeconds(2),
        listener,
        flush);
  }

  private static OutboxRecord row(long id, String type, String aggregate, String payload) {
    return new OutboxRecord(
        id, UUID.randomUUID(), type, aggregate, payload, 1, Instant.now(), null);
  }

  private static List<String> ids(OutboxRecord... rows) {
    return java.util.Arrays.stream(rows).map(r -> r.messageId().toString()).toList();
  }

  /** A real WAL flush on the test database that counts its calls. */
  private static final class CountingFlush implements WalFlush {
    final AtomicInteger calls = new AtomicInteger();
    private final WalFlush real = WalFlush.on(TestDatabase.dataSource());

    @Override
    public void awaitDurable() throws java.sql.SQLException, InterruptedException {
      calls.incrementAndGet();
      real.awaitDurable();
    }
  }

  /** What the publisher reported, by type. */
  private static final class Outcomes implements PublishListener {
    final List<String> published = new CopyOnWriteArrayList<>();
    final List<String> failed = new CopyOnWriteArrayList<>();

    @Override
    public void published(String type, String topic, Duration latency) {
      published.add(type);
    }

    @Override
    public void failed(String type, String topic, Duration latency, Throwable failure) {
      failed.add(type);
    }
  }

  /** The test producer, whose sends fail within the publisher's send time-out (2 s). */
  private static KafkaProducer<String, String> producer(Map<String, Object> extra) {
    Map<String, Object> config = new java.util.HashMap<>(extra);
    config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1995);
    config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2000);
    return KafkaTestSupport.producer(config);
  }
}
