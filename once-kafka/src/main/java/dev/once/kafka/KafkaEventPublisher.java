package dev.once.kafka;

import dev.once.events.EventTransport;
import dev.once.failures.TransientFailures;
import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.postgres.WalFlush;
import dev.once.tracing.TraceContext;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
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
 * <p><b>Batches.</b> As a {@link BatchMessageHandler} it takes a claim's rows of one type at once
 * ({@link #handleAll}): one WAL flush for the batch, every record sent before any acknowledgement
 * is awaited (the producer puts them in as few requests as their partitions allow), then every
 * acknowledgement awaited within one send time-out; each row is answered on its own, so a row that
 * fails (a record too large: dead; no acknowledgement: retry) fails alone and the others are done.
 * {@link #handle} is a batch of one.
 *
 * <p>Guarantees, given a producer with {@code acks=all} and {@code enable.idempotence=true} (the
 * auto-configuration refuses any other):
 *
 * <ul>
 *   <li>a row is done only after the broker acknowledged its record, that is after every in-sync
 *       replica wrote it; a send that fails or does not complete within the send time-out answers
 *       {@link Delivery#retry(String)}, and the relay retries it by the type's policy. A record too
 *       large for the broker can never be published and answers {@link Delivery#dead(String)};
 *   <li>no row is sent before its commit is durable: the publisher waits for a WAL flush first;
 *   <li>at least once on the wire: a retry after a lost acknowledgement writes the record again
 *       (with the same message id, which the consumers' inbox dedups);
 *   <li>order per key: the relay hands a handler the rows of one aggregate one at a time, in commit
 *       order, the next only after the one before it is done, and never two rows of one aggregate
 *       in one batch (a claim holds at most one row per aggregate). So the rows of a batch are of
 *       different aggregates and independent: a row that fails in a batch holds back only the later
 *       rows of its own aggregate, which are not in the batch and are not claimed until it is done;
 *       this publisher is done with a row only once it is acknowledged, so a later row of an
 *       aggregate is never on the topic before an earlier one, however much of a batch fails. All
 *       rows of one aggregate id land on one partition (the key's), as long as the topic's
 *       partition count is not changed.
 * </ul>
 *
 * <p>The sends wait for their acknowledgements on the relay's worker thread, with no database
 * transaction open; the producer also batches the records that several workers send at the same
 * time. Thread-safe, as the producer is.
 */
public final class KafkaEventPublisher implements EventTransport, BatchMessageHandler {
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
    return handleAll(List.of(row), BatchCompletion.NONE).get(0);
  }

  /**
   * Publishes a batch of rows: waits for ONE WAL flush for all of them, sends every row's record,
   * then awaits every acknowledgement; the send time-out bounds the whole batch (a row not
   * acknowledged when it has passed is a retry). Answers per row, in order: {@link Delivery#done()}
   * for a record the broker acknowledged, a retry or a death for one that failed, as {@link
   * #handle} does; one row's failure changes nothing for the others. The relay completes the rows
   * answered done in one statement.
   */
  @Override
  public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) {
    List<ProducerRecord<String, String>> records = rows.stream().map(this::recordOf).toList();
    long start = System.nanoTime();
    long deadline = start + sendTimeout.toNanos();
    Delivery[] outcomes = new Delivery[rows.size()];
    try {
      durable.awaitDurable();
    } catch (SQLException e) {
      String reason =
          "could not make the row's commit durable before publishing: "
              + TransientFailures.condition(e);
      return failAll(rows, records, 0, outcomes, start, e, reason);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failAll(rows, records, 0, outcomes, start, e, null);
    }
    List<Future<RecordMetadata>> sent = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      try {
        sent.add(producer.send(records.get(i)));
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        // send() blocked for max.block.ms (no metadata, a full buffer): so would the next ones.
        sent.add(null);
        outcomes[i] = failed(rows.get(i), records.get(i), start, e);
        return failAll(
            rows,
            records,
            i + 1,
            outcomes,
            start,
            e,
            "not sent: a send before it in its batch blocked for the send time-out ("
                + sendTimeout
                + ")");
      } catch (RuntimeException e) {
        // send() throws at once for what the producer refuses before sending (a record too
        // large, a serialization failure).
        sent.add(null);
        outcomes[i] = failed(rows.get(i), records.get(i), start, e);
      }
    }
    for (int i = 0; i < rows.size(); i++) {
      if (outcomes[i] == null) {
        try {
          outcomes[i] = acknowledged(rows.get(i), records.get(i), sent.get(i), start, deadline);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return failAll(rows, records, i, outcomes, start, e, null);
        }
      }
    }
    return answers(outcomes);
  }

  /**
   * The outcomes as a list that answers {@code contains(null)} (the relay asks; {@code List.of}
   * throws there, which the relay took as the batch failing as a whole).
   */
  private static List<Delivery> answers(Delivery[] outcomes) {
    return Collections.unmodifiableList(Arrays.asList(outcomes));
  }

  /** Waits until {@code deadline} for {@code sent}, the send of {@code row}'s record. */
  private Delivery acknowledged(
      OutboxRecord row,
      ProducerRecord<String, String> record,
      Future<RecordMetadata> sent,
      long start,
      long deadline)
      throws InterruptedException {
    try {
      sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      listener.published(row.type(), record.topic(), since(start));
      return Delivery.done();
    } catch (TimeoutException e) {
      listener.failed(row.type(), record.topic(), since(start), e);
      return Delivery.retry(
          "no acknowledgement from Kafka within " + sendTimeout + " for " + record.topic());
    } catch (ExecutionException e) {
      return failed(row, record, start, e.getCause() == null ? e : e.getCause());
    }
  }

  /**
   * Answers a retry for every row from {@code from} on that has no outcome yet, for {@code
   * failure}: with {@code reason}, or, without one, as interrupted.
   */
  private List<Delivery> failAll(
      List<OutboxRecord> rows,
      List<ProducerRecord<String, String>> records,
      int from,
      Delivery[] outcomes,
      long start,
      Throwable failure,
      String reason) {
    for (int i = from; i < rows.size(); i++) {
      if (outcomes[i] == null) {
        ProducerRecord<String, String> record = records.get(i);
        listener.failed(rows.get(i).type(), record.topic(), since(start), failure);
        outcomes[i] =
            Delivery.retry(
                reason != null ? reason : "interrupted while publishing to " + record.topic());
      }
    }
    return answers(outcomes);
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
