package dev.once.kafka.spring;

import dev.once.failures.TransientFailures;
import dev.once.kafka.EventTopics;
import dev.once.kafka.InvalidRecordException;
import dev.once.kafka.OnceHeaders;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConsumerAwareRecordRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * What an inbox listener does with a record that fails (the listener throws a {@code
 * BatchListenerFailedException} for it, {@link InboxDeliveryException} or {@link
 * TransientInboxException}): it commits the offsets of the records before it, tries the record
 * again, on the same partition, before any later record of it, with exponential backoff; after
 * {@code max-attempts} it publishes the record with its error to the dead-letter topic, commits
 * past it, and the partition goes on. A record refused as invalid goes there at once. A failure of
 * an unavailable database ({@link TransientFailures}) is retried until the database answers again,
 * never dead-lettered: no valid event is given up for an outage. A record's count starts again when
 * its failure changes between transient and not.
 */
final class ConsumerErrors {
  private static final Logger log = LoggerFactory.getLogger(ConsumerErrors.class);

  private ConsumerErrors() {}

  static DefaultErrorHandler handler(
      String consumer,
      EventTopics topics,
      KafkaTemplate<String, String> template,
      OnceKafkaProperties.Consumer settings,
      TransportMeters meters,
      ConsumerLag lag) {
    DeadLetterPublishingRecoverer deadLetters =
        new DeadLetterPublishingRecoverer(
            template,
            (record, failure) -> new TopicPartition(topics.deadLetterTopicOf(record.topic()), -1));
    deadLetters.addHeadersFunction(
        (record, failure) -> {
          RecordHeaders headers = new RecordHeaders();
          headers.add(OnceHeaders.DEAD_LETTER_REASON, utf8(reason(failure)));
          headers.add(OnceHeaders.DEAD_LETTER_CONSUMER, utf8(consumer));
          return headers;
        });
    DefaultErrorHandler handler =
        new CountingAcrossPartitions(
            (ConsumerAwareRecordRecoverer)
                (record, client, failure) -> {
                  log.warn(
                      "Inbox consumer {} gives up on the record at {}-{}@{}: {}; it goes to {}",
                      consumer,
                      record.topic(),
                      record.partition(),
                      record.offset(),
                      reason(failure),
                      topics.deadLetterTopicOf(record.topic()));
                  deadLetters.accept(record, client, failure);
                  meters.deadLettered(consumer, record.topic());
                  if (client != null) {
                    // The listener counted the record as waiting; it is done with now.
                    lag.handled(record, client);
                  }
                },
            limited(settings));
    handler.addNotRetryableExceptions(InvalidRecordException.class);
    handler.setBackOffFunction(
        (record, failure) -> TransientFailures.isTransient(failure) ? unlimited(settings) : null);
    handler.setCommitRecovered(true);
    handler.setLogLevel(KafkaException.Level.WARN);
    return handler;
  }

  /**
   * The error handler of a listener that gets a poll's records one partition at a time. Spring
   * Kafka forgets a thread's failed records (their attempts, their backoff) whenever a call of the
   * batch listener succeeds; a thread that also reads other partitions succeeds between two
   * attempts at a failing record, so the record's count started again and {@code max-attempts}
   * never came. This handler keeps the counts: a record's count ends when it is dead-lettered, when
   * another record of its partition fails, or when its failure changes class.
   */
  private static final class CountingAcrossPartitions extends DefaultErrorHandler {
    CountingAcrossPartitions(ConsumerAwareRecordRecoverer recoverer, BackOff backOff) {
      super(recoverer, backOff);
    }

    @Override
    public void clearThreadState() {
      // Kept: see the class.
    }
  }

  /** What went wrong, in words: the failure's own message, without the listener's wrapping. */
  static String reason(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof ListenerExecutionFailedException
            || cause instanceof InboxDeliveryException
            || cause instanceof TransientInboxException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof InvalidRecordException) {
      return "invalid record: " + cause.getMessage();
    }
    String message = cause.getMessage();
    return cause.getClass().getName() + (message == null ? "" : ": " + message);
  }

  private static BackOff limited(OnceKafkaProperties.Consumer settings) {
    ExponentialBackOff backOff = unlimited(settings);
    backOff.setMaxAttempts(settings.maxAttempts() - 1L);
    return backOff;
  }

  private static ExponentialBackOff unlimited(OnceKafkaProperties.Consumer settings) {
    ExponentialBackOff backOff = new ExponentialBackOff(settings.initialDelay().toMillis(), 2.0);
    backOff.setMaxInterval(settings.maxDelay().toMillis());
    return backOff;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
