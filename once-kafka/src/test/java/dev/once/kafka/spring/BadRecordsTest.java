package dev.once.kafka.spring;

import static dev.once.kafka.KafkaTestSupport.header;
import static dev.once.kafka.KafkaTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Records that no retry can apply, written onto the consumer's topic by a foreign producer (no
 * message id or a malformed one, no type, no key, a tombstone, a value that is not JSON or is
 * nested too deep, or not UTF-8, even inside a JSON string, which Kafka's string decoder would have
 * turned into valid JSON with replacement characters), each go to the dead-letter topic after one
 * attempt although max-attempts allows five, with a reason that names what is wrong and never
 * quotes the payload; none writes an inbox row or an effect, and a valid record after them on the
 * same partition is applied. A record of another type sharing the topic is skipped: not applied,
 * not dead-lettered.
 */
@Timeout(120)
class BadRecordsTest {

  /** A bad record: its case name, key, value, and the Once headers it carries. */
  private record Bad(String name, String key, byte[] value, String messageId, String type) {}

  @Test
  void invalidRecordsAreDeadLetteredAtOnceAndThePartitionGoesOn() throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String other = "test.kafka.other." + run;
    String topic = "shared-" + run;
    String consumer = KafkaTestApplication.consumer(run);
    String key = "bad-" + run;
    Map<String, String> uuids = new LinkedHashMap<>();
    List<Bad> bad =
        List.of(
            new Bad("no-message-id", key, utf8("{\"n\":1}"), null, type),
            new Bad("message-id-not-a-uuid", key, utf8("{\"n\":1}"), "not-a-uuid", type),
            new Bad("message-id-short-form", key, utf8("{\"n\":1}"), "1-1-1-1-1", type),
            new Bad("no-type", key, utf8("{\"n\":1}"), uuid(uuids, "no-type"), null),
            new Bad("no-key", null, utf8("{\"n\":1}"), uuid(uuids, "no-key"), type),
            new Bad("empty-key", "", utf8("{\"n\":1}"), uuid(uuids, "empty-key"), type),
            new Bad("tombstone", key, null, uuid(uuids, "tombstone"), type),
            new Bad("truncated-json", key, utf8("{\"a\":"), uuid(uuids, "truncated-json"), type),
            new Bad("not-json", key, utf8("not json"), uuid(uuids, "not-json"), type),
            new Bad(
                "invalid-utf8",
                key,
                new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xa0, (byte) 0xa1},
                uuid(uuids, "invalid-utf8"),
                type),
            new Bad(
                "invalid-utf8-in-a-json-string",
                key,
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}'},
                uuid(uuids, "invalid-utf8-in-a-json-string"),
                type),
            new Bad(
                "nested-1000-deep",
                key,
                utf8("[".repeat(1000) + "]".repeat(1000)),
                uuid(uuids, "nested-1000-deep"),
                type));
    Map<String, String> reasons =
        Map.ofEntries(
            Map.entry("no-message-id", "has no once-message-id header"),
            Map.entry("message-id-not-a-uuid", "once-message-id header is not a UUID"),
            Map.entry("message-id-short-form", "once-message-id header is not a UUID"),
            Map.entry("no-type", "has no once-type header"),
            Map.entry("no-key", "has no key"),
            Map.entry("empty-key", "has no key"),
            Map.entry("tombstone", "has no value (a tombstone)"),
            Map.entry("truncated-json", "value is not a JSON document"),
            Map.entry("not-json", "value is not a JSON document"),
            Map.entry("invalid-utf8", "value is not valid UTF-8 text"),
            Map.entry("invalid-utf8-in-a-json-string", "value is not valid UTF-8 text"),
            Map.entry("nested-1000-deep", "nested deeper than the maximum depth"));

    KafkaTransportTest.app(run)
        .withBean(SimpleMeterRegistry.class)
        .withBean(Interceptions.class)
        .withPropertyValues(
            "once.kafka.topics[" + type + "]=" + topic,
            "once.kafka.topics[" + other + "]=" + topic,
            "once.kafka.consumer.max-attempts=5")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              Interceptions interceptions = context.getBean(Interceptions.class);
              UUID valid = UUID.randomUUID();
              UUID otherType = UUID.randomUUID();
              try (KafkaProducer<String, byte[]> producer = KafkaTestSupport.rawProducer()) {
                for (Bad record : bad) {
                  producer.send(
                      new ProducerRecord<>(
                          topic,
                          0,
                          record.key(),
                          record.value(),
                          headers(record.name(), record.messageId(), record.type())));
                }
                producer.send(
                    new ProducerRecord<>(
                        topic,
                        0,
                        key,
                        utf8("{\"n\":2}"),
                        headers("other-type", otherType.toString(), other)));
                producer
                    .send(
                        new ProducerRecord<>(
                            topic,
                            0,
                            key,
                            utf8("{\"n\":3}"),
                            headers("valid", valid.toString(), type)))
                    .get();
              }

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> effects.applied(valid, consumer) == 1);
              List<ConsumerRecord<String, String>> dead = TestBroker.readAll(topic + ".dlt");
              Map<String, ConsumerRecord<String, String>> byCase =
                  dead.stream()
                      .collect(Collectors.toMap(r -> header(r, Interceptions.CASE), r -> r));

              assertThat(byCase.keySet())
                  .containsExactlyInAnyOrderElementsOf(bad.stream().map(Bad::name).toList());
              assertThat(dead).hasSameSizeAs(bad);
              for (Bad record : bad) {
                ConsumerRecord<String, String> letter = byCase.get(record.name());
                String reason = header(letter, OnceHeaders.DEAD_LETTER_REASON);
                assertThat(reason)
                    .as(record.name())
                    .startsWith("invalid record: ")
                    .contains(reasons.get(record.name()));
                if (record.value() != null) {
                  String value = new String(record.value(), StandardCharsets.UTF_8);
                  assertThat(reason).as(record.name()).doesNotContain(value);
                  assertThat(reason).as(record.name()).doesNotContain("[[[");
                }
                assertThat(header(letter, OnceHeaders.DEAD_LETTER_CONSUMER)).isEqualTo(consumer);
                assertThat(letter.key()).as(record.name()).isEqualTo(record.key());
                assertThat(interceptions.of(record.name()))
                    .as("attempts at " + record.name())
                    .isEqualTo(1);
              }
              // Nothing written for any of them: only the valid record has an inbox row, an
              // effect.
              for (String id : uuids.values()) {
                assertThat(KafkaTestSupport.inboxRows(ds, UUID.fromString(id))).isZero();
              }
              assertThat(KafkaTestSupport.inboxRowsOf(ds, consumer)).isEqualTo(1);
              assertThat(KafkaTestSupport.effectsOf(ds, consumer)).isEqualTo(1);

              // The other type's record was skipped once: no effect, no inbox row, no dead letter.
              assertThat(interceptions.of("other-type")).isEqualTo(1);
              assertThat(KafkaTestSupport.inboxRows(ds, otherType)).isZero();
              assertThat(byCase).doesNotContainKey("other-type");
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              PoisonRecordTest.assertApplied(registry, consumer, 1.0);
              assertThat(PoisonRecordTest.deadLetters(registry, consumer))
                  .isEqualTo((double) bad.size());
            });
  }

  @Test
  void aRecordOfAnotherTypeOnTheSharedTopicPublishedByTheRelayIsSkipped() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String other = "test.kafka.other." + run;
    String topic = "shared-" + run;
    String consumer = KafkaTestApplication.consumer(run);
    KafkaTransportTest.app(run)
        .withPropertyValues(
            "once.kafka.topics[" + type + "]=" + topic,
            "once.kafka.topics[" + other + "]=" + topic,
            "once.outbox.events=" + other)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              KafkaTestApplication.Events events =
                  context.getBean(KafkaTestApplication.Events.class);
              String key = "shared-" + run;
              UUID skipped = events.publish(other, key, "{\"n\": 1}").messageId();
              UUID applied = events.publish(type, key, "{\"n\": 2}").messageId();

              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> effects.applied(applied, consumer) == 1);
              List<ConsumerRecord<String, String>> records = TestBroker.readAll(topic);
              assertThat(records)
                  .extracting(r -> header(r, OnceHeaders.TYPE))
                  .containsExactly(other, type);
              assertThat(effects.applied(skipped, consumer)).isZero();
              assertThat(KafkaTestSupport.inboxRows(ds, skipped)).isZero();
              assertThat(TestBroker.readAll(topic + ".dlt")).isEmpty();
            });
  }

  private static String uuid(Map<String, String> uuids, String name) {
    String id = UUID.randomUUID().toString();
    uuids.put(name, id);
    return id;
  }

  private static RecordHeaders headers(String name, String messageId, String type) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(Interceptions.CASE, utf8(name));
    if (messageId != null) {
      headers.add(OnceHeaders.MESSAGE_ID, utf8(messageId));
    }
    if (type != null) {
      headers.add(OnceHeaders.TYPE, utf8(type));
    }
    return headers;
  }
}
