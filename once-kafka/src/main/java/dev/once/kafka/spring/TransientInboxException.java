package dev.once.kafka.spring;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * A transient database failure of an inbox consumer's transaction ({@code TransientFailures}) at
 * one record of a batch, carried to the error handler, which retries that record without limit. A
 * {@link BatchListenerFailedException}, so the error handler commits the offsets before the record
 * and retries from it; not a subclass of {@link InboxDeliveryException}: the error handler tells
 * the two apart by class, and starts a record's count and backoff again when the class changes.
 */
final class TransientInboxException extends BatchListenerFailedException {
  private static final long serialVersionUID = 1L;

  TransientInboxException(String consumer, Exception cause, ConsumerRecord<?, ?> record) {
    super("inbox consumer " + consumer + " failed transiently: " + cause, cause, record);
  }
}
