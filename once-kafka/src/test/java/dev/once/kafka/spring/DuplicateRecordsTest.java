package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxEntry;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Records written more than once, as a producer's retry after a lost acknowledgement writes them
 * (the same event, the same once-message-id, again on the topic, after it or after the next event
 * of its key): the consumer applies each event once, in order of first occurrence per key, and the
 * {@code once.kafka.consumer.records{outcome=duplicate}} counter counts exactly the absorbed
 * copies.
 */
@Timeout(120)
class DuplicateRecordsTest {

  @Test
  void copiesOfARecordAreAbsorbedByTheInboxAndCounted() throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    List<String> properties =
        TransportApps.properties(run, TestBroker.servers(), TestDatabase.jdbcUrl());
    // One partition: the sentinel published last is consumed after every copy before it.
    properties.add("once.kafka.topic.partitions=1");
    try (ConfigurableApplicationContext app = TransportApps.start(properties);
        KafkaProducer<String, String> raw = rawProducer()) {
      DataSource dataSource = app.getBean(DataSource.class);
      new EffectTable(dataSource);
      KafkaTestApplication.EffectConsumer effects =
          app.getBean(KafkaTestApplication.EffectConsumer.class);
      KafkaTestApplication.Events events = app.getBean(KafkaTestApplication.Events.class);
      PublishedEvents published = new PublishedEvents();

      // e1 through the relay; then twice more on the wire, as the retries of a publication whose
      // acknowledgement was lost.
      OutboxEntry e1 = events.publish(type, "agg-a", "{\"seq\":1}");
      published.add(e1, "agg-a");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> new EffectTable(dataSource).applied(e1.messageId(), consumer) == 1);
      send(raw, type, e1.messageId(), "agg-a", "{\"seq\":1}");
      send(raw, type, e1.messageId(), "agg-a", "{\"seq\":1}");

      // e2 of agg-b written twice, e3 of agg-a three times, by another producer; e1's last copy
      // comes after e2 (its key's next event) was published.
      UUID e2 = UUID.randomUUID();
      UUID e3 = UUID.randomUUID();
      published.add(e2, "agg-b");
      send(raw, type, e2, "agg-b", "{\"seq\":2}");
      send(raw, type, e2, "agg-b", "{\"seq\":2}");
      published.add(e3, "agg-a");
      send(raw, type, e3, "agg-a", "{\"seq\":3}");
      send(raw, type, e1.messageId(), "agg-a", "{\"seq\":1}");
      send(raw, type, e3, "agg-a", "{\"seq\":3}");
      send(raw, type, e3, "agg-a", "{\"seq\":3}");

      // The sentinel, through the relay, after all of them on the one partition.
      OutboxEntry e4 = events.publish(type, "agg-b", "{\"seq\":4}");
      published.add(e4, "agg-b");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> new EffectTable(dataSource).applied(e4.messageId(), consumer) == 1);

      published.assertEachAppliedExactlyOnce(dataSource, consumer);
      assertThat(effects.applied.stream().map(m -> m.messageId()).toList())
          .as("applied once each, in order of first occurrence")
          .containsExactly(e1.messageId(), e2, e3, e4.messageId());
      published.assertInPublishOrderPerKey(
          PublishedEvents.messageIds(TestBroker.readAll(type)), true, "the topic");
      assertThat(TestBroker.readAll(type)).as("records on the topic").hasSize(10);
      // 4 copies of e1 (one from the relay), 2 of e2, 3 of e3, 1 of e4: 4 applied, 6 absorbed.
      assertThat(TransportApps.records(app, consumer, "applied")).isEqualTo(4);
      assertThat(TransportApps.records(app, consumer, "duplicate")).isEqualTo(6);
      Map<UUID, Integer> effectsNow = PublishedEvents.effects(dataSource, consumer);
      assertThat(effectsNow).hasSize(4).allSatisfy((id, applied) -> assertThat(applied).isOne());
    }
  }

  private static KafkaProducer<String, String> rawProducer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            TestBroker.servers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.ACKS_CONFIG,
            "all"));
  }

  /** Writes one record as {@code KafkaEventPublisher} does, and waits for its acknowledgement. */
  private static void send(
      KafkaProducer<String, String> producer, String type, UUID id, String key, String value)
      throws Exception {
    RecordHeaders headers = new RecordHeaders();
    headers.add(OnceHeaders.MESSAGE_ID, id.toString().getBytes(StandardCharsets.UTF_8));
    headers.add(OnceHeaders.TYPE, type.getBytes(StandardCharsets.UTF_8));
    producer.send(new ProducerRecord<>(type, null, key, value, headers)).get(30, TimeUnit.SECONDS);
  }
}
