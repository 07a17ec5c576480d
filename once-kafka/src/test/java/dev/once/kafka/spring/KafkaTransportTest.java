package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.kafka.KafkaEventPublisher;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxEntry;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

/** Events leave through a real broker and come back through the inbox, each effect once. */
@Timeout(120)
class KafkaTransportTest {
  static ApplicationContextRunner app(String run) {
    return new ApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                KafkaAutoConfiguration.class))
        .withUserConfiguration(KafkaTestApplication.class)
        .withPropertyValues(
            "spring.datasource.url=" + TestDatabase.jdbcUrl(),
            "spring.datasource.username=postgres",
            "spring.datasource.password=postgres",
            "spring.kafka.bootstrap-servers=" + TestBroker.servers(),
            "test.run=" + run,
            "once.kafka.topic.partitions=3",
            "once.kafka.consumer.initial-delay=10ms",
            "once.kafka.consumer.max-delay=100ms",
            "once.outbox.relay.poll-interval=200ms");
  }

  @Test
  void eventsGoThroughTheBrokerInOrderPerKeyAndAreAppliedOnce() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(EventTransport.class))
                  .isInstanceOf(KafkaEventPublisher.class);
              assertThat(context).doesNotHaveBean(InProcessEventTransport.class);
              EffectTable effects = new EffectTable(context.getBean(javax.sql.DataSource.class));
              KafkaTestApplication.Events events =
                  context.getBean(KafkaTestApplication.Events.class);
              Map<UUID, String> published = new LinkedHashMap<>();
              for (int i = 0; i < 40; i++) {
                String aggregate = "agg-" + (i % 4);
                OutboxEntry entry = events.publish(type, aggregate, "{\"seq\":" + i + "}");
                published.put(entry.messageId(), aggregate);
              }

              String consumer = KafkaTestApplication.consumer(run);
              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(
                      () ->
                          published.keySet().stream()
                              .allMatch(id -> effects.applied(id, consumer) >= 1));
              for (UUID id : published.keySet()) {
                assertThat(effects.applied(id, consumer)).as("effects of %s", id).isEqualTo(1);
              }

              List<ConsumerRecord<String, String>> records = TestBroker.readAll(type);
              assertThat(records).hasSize(40);
              Map<String, List<Integer>> seqByKey = new LinkedHashMap<>();
              for (ConsumerRecord<String, String> record : records) {
                UUID id = UUID.fromString(header(record, OnceHeaders.MESSAGE_ID));
                assertThat(published.get(id)).isEqualTo(record.key());
                assertThat(header(record, OnceHeaders.TYPE)).isEqualTo(type);
                int seq = Integer.parseInt(record.value().replaceAll("\\D", ""));
                seqByKey.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(seq);
              }
              seqByKey.values().forEach(seqs -> assertThat(seqs).isSorted());
            });
  }

  static String header(ConsumerRecord<?, ?> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
