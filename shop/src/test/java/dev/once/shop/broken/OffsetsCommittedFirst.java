package dev.once.shop.broken;

import dev.once.inbox.InboxConsumer;
import dev.once.kafka.spring.InboxListenerCustomizer;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * The broken mode {@link BrokenMode#COMMIT_OFFSET_BEFORE_TRANSACTION}, for {@code once-verify chaos
 * --kafka}'s self-test only: commits each record's offset before the inbox transaction runs, so a
 * kill between the two loses the record. Does nothing in any other mode.
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
    container.setRecordInterceptor(
        new RecordInterceptor<String, String>() {
          @Override
          public ConsumerRecord<String, String> intercept(
              ConsumerRecord<String, String> record, Consumer<String, String> client) {
            client.commitSync(
                Map.of(
                    new TopicPartition(record.topic(), record.partition()),
                    new OffsetAndMetadata(record.offset() + 1)));
            // The window in which a kill loses the record, held open long enough that a kill
            // during consumer traffic always finds a record in it: the self-test's catch is then
            // certain, not a matter of a kill landing in a few milliseconds.
            try {
              Thread.sleep(WINDOW.toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return record;
          }
        });
  }
}
