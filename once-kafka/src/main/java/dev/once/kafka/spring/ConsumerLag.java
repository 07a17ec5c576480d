package dev.once.kafka.spring;

import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One inbox consumer's lag in this instance: per partition it holds, the records after the last one
 * it applied, from the high watermark its client last fetched. Read without a call to the broker.
 * Thread-safe.
 */
final class ConsumerLag {
  private final Map<TopicPartition, Long> lag = new ConcurrentHashMap<>();

  /**
   * Before {@code record} is handled by {@code consumer}'s thread: it and the records after it
   * wait. Without it, a consumer stuck on a record (retrying it, or blocked) showed the lag of the
   * record before, zero when that one was the last of its fetch, while a backlog waited.
   */
  void handling(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer) {
    update(record, consumer, 0);
  }

  /** After {@code record} was handled (applied, skipped or dead-lettered) by its thread. */
  void handled(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer) {
    update(record, consumer, 1);
  }

  private void update(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer, long done) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    OptionalLong fetched = consumer.currentLag(partition);
    if (fetched.isPresent()) {
      // The position is past every record of the last fetch, handled or not.
      long highWatermark = consumer.position(partition) + fetched.getAsLong();
      lag.put(partition, Math.max(0, highWatermark - record.offset() - done));
    }
  }

  /** The partitions moved to another instance. */
  void revoked(Collection<TopicPartition> partitions) {
    partitions.forEach(lag::remove);
  }

  long records() {
    return lag.values().stream().mapToLong(Long::longValue).sum();
  }
}
