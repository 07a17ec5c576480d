package dev.once.kafka;

import dev.once.events.EventTransport;
import dev.once.failures.TransientFailures;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.postgres.WalFlush;
import dev.once.tracing.TraceContext;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Publishes outbox rows of event types to Kafka: the relay's {@link EventTransport} when events
 * leave the process. Each row becomes one record on the topic of its type ({@link EventTopics}),
 * keyed by the row's aggregate id, with the row's payload as its value and the headers {@link
 * OnceHeaders#MESSAGE_ID} and {@link OnceHeaders#TYPE}, and, when the row carries a trace context
 * ({@link OutboxRecord#trace()}), {@link OnceHeaders#TRACEPARENT} and {@link
 * OnceHeaders#TRACESTATE}.
 *
 * <p>Guarantees, given a producer with {@code acks=all} and {@code enable.idempotence=true} (the
 * auto-configuration refuses any other):
 *
 * <ul>
 *   <li>a row is done only after the broker acknowledged its record, that is after every in-sync
 *       replica wrote it; a send that fails or does not complete within the send time-out answers
 *       {@link Delivery#retry(String)}, and the relay retries it by the type's policy. A record too
 *       large for the broker can never be published and answers {@link Delivery#dead(String)};
 *   <li>at least once on the wire: a retry after a lost acknowledgement writes the record again
 *       (with the same message id, which the consumers' inbox dedups);
 *   <li>order per key: the relay hands a handler the rows of one aggregate one at a time, in commit
 *       order, the next only after the one before it is done; this publisher is done with a row
 *       only once it is acknowledged, so a later row of an aggregate is never on the topic before
 *       an earlier one, even when other rows of the same batch fail. All rows of one aggregate id
 *       land on one partition (the key's), as long as the topic's partition count is not changed.
 * </ul>
 *
 * <p>The send waits for the acknowledgement on the relay's worker thread, with no database
 * transaction open; the producer batches the records that the relay's workers send at the same
 * time. Thread-safe, as the producer is.
 */
public final class KafkaEventPublisher implements EventTransport {
  private final Producer<String, String> producer;
  private final EventTopics topics;
  private final Set<String> types;
  private final Duration sendTimeout;
  private final PublishListener listener;
  private final WalFlush durable;

  /**
   * @param producer an idempotent producer with {@code acks=all}; shared, not closed by this class
   * @param types the event types to publish
   * @param sendTimeout how long one send may wait for its acknowledgement; shorter than the relay's
   *     handler time-out for these types, so that a slow broker ends as a retry of this publisher's
   *     own, not as the relay cutting the handler off
   * @param durable waited for before each send, so that no row is published whose commit a crash of
   *     the database could take back (a row appended by a transaction that committed
   *     asynchronously: a settlement, an inbox consumer's effect); concurrent sends share one WAL
   *     flush. {@link WalFlush#none()} when every commit that appends events is durable
   */
  public KafkaEventPublisher(
      Producer<String, String> producer,
      EventTopics topics,
      Set<String> types,
      Duration sendTimeout,
      PublishListener listener,
      WalFlush durable) {
    this.durable = Objects.requireNonNull(durable, "durable");
    this.producer = Objects.requireNonNull(producer, "producer");
    this.topics = Objects.requireNonNull(topics, "topics");
    this.types = Set.copyOf(types);
    this.sendTimeout = Objects.requireNonNull(sendTimeout, "sendTimeout");
    this.listener = Objects.requireNonNull(listener, "listener");
    if (sendTimeout.isNegative() || sendTimeout.isZero()) {
      throw new IllegalArgumentException("sendTimeout must be positive, but was " + sendTimeout);
    }
    this.types.forEach(topics::topicOf);
  }

  @Override
  public Set<String> types() {
    return types;
  }

  /** The record that carries {@code row}. */
  public ProducerRecord<String, String> recordOf(OutboxRecord row) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(OnceHeaders.MESSAGE_ID, utf8(row.messageId().toString()));
    headers.add(OnceHeaders.TYPE, utf8(row.type()));
    TraceContext trace = row.trace();
    if (trace != null) {
      headers.add(OnceHeaders.TRACEPARENT, utf8(trace.traceparent()));
      if (trace.tracestate() != null) {
        headers.add(OnceHeaders.TRACESTATE, utf8(trace.tracestate()));
      }
    }
    return new ProducerRecord<>(
        topics.topicOf(row.type()), null, row.aggregateId(), row.payloadJson(), headers);
  }

  @Override
  public Delivery handle(OutboxRecord row) {
    ProducerRecord<String, String> record = recordOf(row);
    long start = System.nanoTime();
    try {
      durable.awaitDurable();
      Future<RecordMetadata> sent = producer.send(record);
      sent.get(sendTimeout.toNanos(), TimeUnit.NANOSECONDS);
      listener.published(row.type(), record.topic(), since(start));
      return Delivery.done();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listener.failed(row.type(), record.topic(), since(start), e);
      return Delivery.retry("interrupted while publishing to " + record.topic());
    } catch (TimeoutException e) {
      listener.failed(row.type(), record.topic(), since(start), e);
      return Delivery.retry(
          "no acknowledgement from Kafka within " + sendTimeout + " for " + record.topic());
    } catch (SQLException e) {
      listener.failed(row.type(), record.topic(), since(start), e);
      return Delivery.retry(
          "could not make the row's commit durable before publishing: "
              + TransientFailures.condition(e));
    } catch (ExecutionException e) {
      return failed(row, record, start, e.getCause() == null ? e : e.getCause());
    } catch (RuntimeException e) {
      // send() throws at once for what the producer refuses before sending (a full buffer after
      // max.block.ms, a record too large, a serialization failure).
      return failed(row, record, start, e);
    }
  }

  private Delivery failed(
      OutboxRecord row, ProducerRecord<String, String> record, long start, Throwable failure) {
    listener.failed(row.type(), record.topic(), since(start), failure);
    String reason =
        "publishing to " + record.topic() + " failed: " + failure.getClass().getSimpleName();
    if (failure instanceof RecordTooLargeException
        || failure instanceof SerializationException
        || failure instanceof InvalidTopicException) {
      return Delivery.dead(reason + " (permanent: " + failure.getMessage() + ")");
    }
    return Delivery.retry(reason);
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
