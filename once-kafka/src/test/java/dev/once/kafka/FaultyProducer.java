package dev.once.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A real producer behind a wrapper that injects faults into chosen sends: a failed future, an
 * exception thrown by {@code send} itself, or a send that reaches the broker while its
 * acknowledgement is lost (the future never completes). Logs every send's message id, in order.
 */
public final class FaultyProducer implements Producer<String, String> {
  /** What to do with one send. */
  public enum Fault {
    NONE,
    /** The future fails with a retriable network error; nothing is sent. */
    FAIL,
    /** {@code send} throws at once; nothing is sent. */
    THROW,
    /** The record is sent, but the caller never hears the acknowledgement. */
    LOSE_ACK
  }

  private final Producer<String, String> delegate;
  private final Function<ProducerRecord<String, String>, Fault> faults;
  private final List<String> sends = new CopyOnWriteArrayList<>();

  public FaultyProducer(
      Producer<String, String> delegate, Function<ProducerRecord<String, String>, Fault> faults) {
    this.delegate = delegate;
    this.faults = faults;
  }

  /** The message id of each send, in the order they were made, with the fault applied. */
  public List<String> sends() {
    return List.copyOf(sends);
  }

  public static String messageId(ProducerRecord<?, ?> record) {
    Header header = record.headers().lastHeader(OnceHeaders.MESSAGE_ID);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<String, String> record) {
    return send(record, null);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<String, String> record, Callback callback) {
    Fault fault = faults.apply(record);
    sends.add(messageId(record) + (fault == Fault.NONE ? "" : " " + fault));
    switch (fault) {
      case FAIL:
        return CompletableFuture.failedFuture(new NetworkException("injected: connection lost"));
      case THROW:
        throw new KafkaException("injected: the producer refused the send");
      case LOSE_ACK:
        delegate.send(record, callback);
        return new CompletableFuture<>();
      default:
        return delegate.send(record, callback);
    }
  }

  @Override
  public void initTransactions() {
    delegate.initTransactions();
  }

  @Override
  public void beginTransaction() {
    delegate.beginTransaction();
  }

  @Override
  public void sendOffsetsToTransaction(
      Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
    delegate.sendOffsetsToTransaction(offsets, groupMetadata);
  }

  @Override
  public void commitTransaction() {
    delegate.commitTransaction();
  }

  @Override
  public void abortTransaction() {
    delegate.abortTransaction();
  }

  @Override
  public void registerMetricForSubscription(KafkaMetric metric) {
    delegate.registerMetricForSubscription(metric);
  }

  @Override
  public void unregisterMetricFromSubscription(KafkaMetric metric) {
    delegate.unregisterMetricFromSubscription(metric);
  }

  @Override
  public void flush() {
    delegate.flush();
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    return delegate.partitionsFor(topic);
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return delegate.metrics();
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return delegate.clientInstanceId(timeout);
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public void close(Duration timeout) {
    delegate.close(timeout);
  }
}
