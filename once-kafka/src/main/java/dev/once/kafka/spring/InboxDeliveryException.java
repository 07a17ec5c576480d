package dev.once.kafka.spring;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * A failure of an inbox consumer's transaction at one record of a batch, other than a transient
 * database failure ({@link TransientInboxException}): the consumer threw, or the record is invalid
 * ({@code InvalidRecordException}, its cause), carried to the error handler. A {@link
 * BatchListenerFailedException}, so the error handler commits the offsets before the record,
 * retries from it up to {@code max-attempts} (an invalid record: not at all), then dead-letters it.
 */
final class InboxDeliveryException extends BatchListenerFailedException {
  private static final long serialVersionUID = 1L;

  InboxDeliveryException(String consumer, Exception cause, ConsumerRecord<?, ?> record) {
    super("inbox consumer " + consumer + " failed: " + cause, cause, record);
  }
}
