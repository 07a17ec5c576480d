package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A consumer process killed with SIGKILL after the database transaction of a batch (several records
 * of one partition, applied together) committed and before the batch's offsets were committed (it
 * blocks in the transaction's afterCommit, in a child JVM, {@link ChildConsumer}). Proves: the
 * batch was one poll's consecutive records of one partition, committed in one transaction; its
 * offsets were indeed not committed; a second consumer of the same group gets every record of the
 * batch redelivered (its listener receives them again) and the inbox absorbs them (each effect
 * stays 1, counted as a duplicate, never applied again); every other event is applied exactly once,
 * none lost, and the two processes' applications together keep publish order per aggregate.
 */
@Timeout(240)
class ConsumerKilledAfterCommitIT {
  @TempDir Path dir;

  @Test
  void aBatchCommittedButNotAcknowledgedIsRedeliveredAndAbsorbed() throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    String jdbcUrl = TestDatabase.jdbcUrl();
    // This process publishes (relay on) and does not consume.
    List<String> publishing = TransportApps.properties(run, TestBroker.servers(), jdbcUrl);
    publishing.add("once.kafka.consumer.enabled=false");
    try (ConfigurableApplicationContext publisher = TransportApps.start(publishing)) {
      DataSource dataSource = publisher.getBean(DataSource.class);
      EffectTable effects = new EffectTable(dataSource);
      PublishedEvents published = new PublishedEvents();
      published.publish(publisher.getBean(KafkaTestApplication.Events.class), type, 150, 10);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  PublishedEvents.outboxRows(dataSource, "state = 'delivered'", published.ids())
                      == published.size());

      Path signal = dir.resolve("committed");
      Path log = dir.resolve("child.log");
      ProcessBuilder builder =
          new ProcessBuilder(ChildConsumer.command(run, TestBroker.servers(), signal))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().put("CHILD_JDBC_URL", jdbcUrl);
      Process child = builder.start();
      List<List<UUID>> transactions;
      try {
        await()
            .atMost(Duration.ofSeconds(150))
            .until(() -> Files.exists(signal) || !child.isAlive());
        assertThat(child.isAlive()).as("the child is alive; its log: %s", log).isTrue();
        transactions = committed(log);
        for (UUID id : transactions.get(transactions.size() - 1)) {
          assertThat(effects.applied(id, consumer))
              .as("the batch's transaction committed before the kill")
              .isEqualTo(1);
        }
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
      } finally {
        child.destroyForcibly();
      }

      List<UUID> batch = transactions.get(transactions.size() - 1);
      List<UUID> childApplied = transactions.stream().flatMap(List::stream).toList();
      assertThat(batch).as("the killed transaction is a batch").hasSizeGreaterThanOrEqualTo(2);
      assertThat(childApplied.size()).as("the child was killed mid-stream").isLessThan(150);
      assertThat(PublishedEvents.effects(dataSource, consumer).keySet())
          .as("what the child committed is what it logged")
          .containsExactlyInAnyOrderElementsOf(childApplied);

      // The batch is consecutive records of one partition, and none of their offsets was
      // committed: the group's position on the partition is at or before the batch's first.
      Map<UUID, ConsumerRecord<String, String>> onTopic = new HashMap<>();
      TestBroker.readAll(type)
          .forEach(r -> onTopic.put(UUID.fromString(header(r, OnceHeaders.MESSAGE_ID)), r));
      ConsumerRecord<String, String> first = onTopic.get(batch.get(0));
      for (int i = 0; i < batch.size(); i++) {
        ConsumerRecord<String, String> record = onTopic.get(batch.get(i));
        assertThat(record.partition()).as("the batch's partition").isEqualTo(first.partition());
        assertThat(record.offset()).as("the batch's offsets").isEqualTo(first.offset() + i);
      }
      OffsetAndMetadata committed =
          committedOffsets(consumer).get(new TopicPartition(type, first.partition()));
      assertThat(committed == null ? 0 : committed.offset())
          .as("the committed offset of the batch's partition")
          .isLessThanOrEqualTo(first.offset());

      // A second consumer of the same group, in this process.
      List<String> consuming = TransportApps.properties(run, TestBroker.servers(), jdbcUrl);
      consuming.addAll(
          List.of("once.outbox.relay.enabled=false", "once.kafka.consumer.concurrency=1"));
      try (ConfigurableApplicationContext second =
          TransportApps.start(consuming, RecordLog.Config.class)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> published.allApplied(dataSource, consumer));
        RecordLog received = second.getBean(RecordLog.class);
        Set<UUID> appliedByChild = Set.copyOf(childApplied);
        // Every record the second received that the child had applied was absorbed as a
        // duplicate, and nothing else was.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    TransportApps.records(second, consumer, "duplicate")
                            == received.received.stream().filter(appliedByChild::contains).count()
                        && TransportApps.records(second, consumer, "applied")
                            == published.size() - childApplied.size());
        for (UUID id : batch) {
          assertThat(received.times(id)).as("the batch's %s was redelivered", id).isPositive();
        }
        assertThat(TransportApps.records(second, consumer, "duplicate"))
            .isGreaterThanOrEqualTo(batch.size());

        published.assertEachAppliedExactlyOnce(dataSource, consumer);
        List<UUID> secondApplied =
            second.getBean(KafkaTestApplication.EffectConsumer.class).applied.stream()
                .map(m -> m.messageId())
                .toList();
        assertThat(secondApplied)
            .as("the second applied none of the batch")
            .doesNotContainAnyElementsOf(batch);
        List<UUID> all = new ArrayList<>(childApplied);
        all.addAll(secondApplied);
        assertThat(all).as("each event applied by one of the two, once").doesNotHaveDuplicates();
        published.assertInPublishOrderPerKey(all, true, "the two consumers' applications");
      }
    }
  }

  /** The child's transactions, in commit order: the messages each applied. */
  private static List<List<UUID>> committed(Path log) throws IOException {
    List<List<UUID>> transactions = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      if (line.startsWith("COMMITTED ")) {
        transactions.add(
            Arrays.stream(line.substring("COMMITTED ".length()).trim().split(" "))
                .map(UUID::fromString)
                .toList());
      }
    }
    return transactions;
  }

  private static Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.servers()))) {
      return admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get(30, TimeUnit.SECONDS);
    }
  }

  private static String header(ConsumerRecord<?, ?> record, String name) {
    var header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
