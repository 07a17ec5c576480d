package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.kafka.TestBroker;
import dev.once.postgres.WalFlush;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The listeners' consumers commit no offset before a WAL flush made the applied effects durable: a
 * commit waits for the flush first, and a commit whose flush fails commits nothing (on a real
 * broker, read back as the group's committed offset).
 */
@Timeout(90)
class DurableOffsetsTest {

  @Test
  void anOffsetIsCommittedOnlyAfterAFlushAndNotAtAllWhenTheFlushFails() throws Exception {
    String run = TestBroker.run();
    String topic = "durable-offsets-" + run;
    String group = "durable-offsets-" + run;
    TopicPartition partition = new TopicPartition(topic, 0);
    AtomicInteger flushes = new AtomicInteger();
    AtomicInteger commitsAfterFlush = new AtomicInteger();
    boolean[] failing = {true};
    WalFlush flush =
        () -> {
          flushes.incrementAndGet();
          if (failing[0]) {
            throw new SQLException("the database is gone", "08006");
          }
        };
    try (KafkaConsumer<String, String> raw =
            new KafkaConsumer<>(
                Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    TestBroker.servers(),
                    ConsumerConfig.GROUP_ID_CONFIG,
                    group,
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                    false,
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                    StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                    StringDeserializer.class));
        Admin admin =
            Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.servers()))) {
      Consumer<String, String> consumer = DurableOffsets.wrap(raw, flush);
      consumer.partitionsFor(topic, Duration.ofSeconds(30)); // creates the topic
      consumer.assign(List.of(partition));
      Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(partition, new OffsetAndMetadata(5));

      assertThatThrownBy(() -> consumer.commitSync(offsets))
          .isInstanceOf(RetriableCommitFailedException.class)
          .hasMessageContaining("SQLSTATE 08006");
      assertThat(committed(admin, group, partition)).isNull();
      AtomicInteger callbacks = new AtomicInteger();
      consumer.commitAsync(
          offsets,
          (done, failure) -> {
            assertThat(failure).isInstanceOf(RetriableCommitFailedException.class);
            callbacks.incrementAndGet();
          });
      assertThat(callbacks).hasValue(1);
      assertThat(committed(admin, group, partition)).isNull();

      failing[0] = false;
      consumer.commitSync(offsets);
      commitsAfterFlush.set(flushes.get());

      assertThat(committed(admin, group, partition)).isEqualTo(5L);
      assertThat(commitsAfterFlush).hasValue(3);
    }
  }

  private static Long committed(Admin admin, String group, TopicPartition partition)
      throws Exception {
    OffsetAndMetadata offset =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(partition);
    return offset == null ? null : offset.offset();
  }
}
