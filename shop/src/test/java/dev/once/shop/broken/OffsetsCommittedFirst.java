package dev.once.shop.broken;

import dev.once.inbox.InboxConsumer;
import dev.once.kafka.spring.InboxListenerCustomizer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * The broken mode {@link BrokenMode#COMMIT_OFFSET_BEFORE_TRANSACTION}, for {@code once-verify chaos
 * --kafka}'s self-test only: commits the offsets of a poll's records before their inbox transaction
 * runs (a batch interceptor: the inbox listeners are batch listeners), so a kill between the two
 * loses the records. Does nothing in any other mode.
 */
class OffsetsCommittedFirst implements InboxListenerCustomizer {
  /** How long each record waits between its early offset commit and its transaction. */
  static final Duration WINDOW = Duration.ofMillis(500);

  private final BrokenMode mode;

  OffsetsCommittedFirst(BrokenMode mode) {
    this.mode = mode;
  }

  @Override
  public void customize(
      InboxConsumer consumer, ConcurrentMessageListenerContainer<String, String> container) {
    if (mode != BrokenMode.COMMIT_OFFSET_BEFORE_TRANSACTION) {
      return;
    }
    container.setBatchInterceptor(
        new BatchInterceptor<String, String>() {
          @Override
          public ConsumerRecords<String, String> intercept(
              ConsumerRecords<String, String> records, Consumer<String, String> client) {
            Map<TopicPartition, OffsetAndMetadata> past = new HashMap<>();
            for (ConsumerRecord<String, String> record : records) {
              past.merge(
                  new TopicPartition(record.topic(), record.partition()),
                  new OffsetAndMetadata(record.offset() + 1),
                  (a, b) -> a.offset() >= b.offset() ? a : b);
            }
            client.commitSync(past);
            // The window in which a kill loses the records, held open long enough that a kill
            // during consumer traffic always finds records in it: the self-test's catch is then
            // certain, not a matter of a kill landing in a few milliseconds.
            try {
              Thread.sleep(WINDOW.toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return records;
          }
        });
  }
}
