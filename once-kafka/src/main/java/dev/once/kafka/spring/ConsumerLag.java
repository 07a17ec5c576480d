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

  /** After {@code record} was handled by {@code consumer}'s thread. */
  void handled(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    OptionalLong fetched = consumer.currentLag(partition);
    if (fetched.isPresent()) {
      // The position is past every record of the last fetch, handled or not.
      long highWatermark = consumer.position(partition) + fetched.getAsLong();
      lag.put(partition, Math.max(0, highWatermark - record.offset() - 1));
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
