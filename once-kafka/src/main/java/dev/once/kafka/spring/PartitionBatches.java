package dev.once.kafka.spring;

import dev.once.failures.TransientFailures;
import dev.once.inbox.InboxMessage;
import dev.once.kafka.InboxRecords;
import dev.once.kafka.InvalidRecordException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BatchConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * The batch listener of one inbox consumer: each call gets the records of ONE partition from one
 * poll, in offset order (the container dispatches a poll partition by partition), and applies them
 * in order through the inbox.
 *
 * <ul>
 *   <li><b>Batch.</b> For a {@code BatchInboxConsumer}, the records of the call, up to the first
 *       invalid one, are applied in ONE database transaction ({@link InboxRecords#applyAll});
 *       records of types the consumer does not take are skipped. Other consumers get one
 *       transaction per record.
 *   <li><b>Failure isolation.</b> If the batch transaction fails, it rolled back as a whole, and
 *       the records are applied again one at a time, in order, each in its own transaction; at the
 *       first that fails, the call throws a {@link BatchListenerFailedException} for it ({@link
 *       TransientInboxException} for a transient database failure, {@link InboxDeliveryException}
 *       otherwise). The error handler ({@link ConsumerErrors}) then commits the offsets before it
 *       (their effects committed), and redelivers the partition from it: the failed record is
 *       applied alone first, before any later record of its partition, retried with the backoff and
 *       dead-lettered after {@code max-attempts}; then the rest go on as a batch. An invalid record
 *       fails the same way after the records before it were applied, and is dead-lettered at once.
 *   <li><b>Order per key.</b> A partition's records are applied in offset order, and a record that
 *       fails holds back every later record of its partition until it is applied or dead-lettered.
 * </ul>
 *
 * <p>A record that fails inside a batch is tried twice in its first delivery (in the batch, then
 * alone); the error handler counts deliveries, so it is tried at most {@code max-attempts + 1}
 * times. Thread-safe: the container's threads share it, each on partitions of its own.
 */
final class PartitionBatches implements BatchConsumerAwareMessageListener<String, String> {
  private static final Logger log = LoggerFactory.getLogger(PartitionBatches.class);

  private final InboxRecords records;
  private final String name;
  private final TransportMeters meters;
  private final ConsumerLag lag;

  /** Per partition, the offset of the record that failed last: its redelivery is applied alone. */
  private final Map<TopicPartition, Long> failed = new ConcurrentHashMap<>();

  PartitionBatches(InboxRecords records, TransportMeters meters, ConsumerLag lag) {
    this.records = records;
    this.name = records.consumer().name();
    this.meters = meters;
    this.lag = lag;
  }

  @Override
  public void onMessage(List<ConsumerRecord<String, String>> batch, Consumer<?, ?> client) {
    if (batch.isEmpty()) {
      return;
    }
    ConsumerRecord<String, String> first = batch.get(0);
    int start = 0;
    if (failed.remove(new TopicPartition(first.topic(), first.partition()), first.offset())) {
      applyAlone(first, read(first), client);
      start = 1;
    }
    List<ConsumerRecord<String, String>> valid = new ArrayList<>(batch.size() - start);
    List<InboxMessage> messages = new ArrayList<>(batch.size() - start);
    for (int i = start; i < batch.size(); i++) {
      ConsumerRecord<String, String> record = batch.get(i);
      InboxMessage message;
      try {
        message = records.read(record);
      } catch (InvalidRecordException e) {
        apply(valid, messages, client);
        lag.handling(record, client);
        throw new InboxDeliveryException(name, e, record);
      }
      valid.add(record);
      messages.add(message);
    }
    apply(valid, messages, client);
  }

  /** The partitions moved to another instance or were lost. */
  void revoked(Collection<TopicPartition> partitions) {
    partitions.forEach(failed::remove);
  }

  /**
   * Applies {@code batch} (valid records; {@code messages}, theirs, {@code null} for a skipped one)
   * in one transaction if the consumer takes batches and more than one message, else one by one.
   */
  private void apply(
      List<ConsumerRecord<String, String>> batch,
      List<InboxMessage> messages,
      Consumer<?, ?> client) {
    if (batch.isEmpty()) {
      return;
    }
    List<InboxMessage> taken = messages.stream().filter(m -> m != null).toList();
    if (records.batches() && taken.size() > 1) {
      lag.handling(batch.get(0), client);
      try {
        List<InboxRecords.Outcome> outcomes = records.applyAll(taken);
        meters.transaction(name, taken.size());
        outcomes.forEach(this::count);
        lag.handled(batch.get(batch.size() - 1), client);
        return;
      } catch (Exception e) {
        log.debug(
            "Inbox consumer {} failed on a batch of {} records of {}-{} ({}); applying them one at"
                + " a time",
            name,
            batch.size(),
            batch.get(0).topic(),
            batch.get(0).partition(),
            e.getClass().getName());
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      applyAlone(batch.get(i), messages.get(i), client);
    }
  }

  /**
   * Applies one record in a transaction of its own.
   *
   * @param message the record's message, {@code null} to skip it
   * @throws BatchListenerFailedException for the record, if it failed
   */
  private void applyAlone(
      ConsumerRecord<String, String> record, InboxMessage message, Consumer<?, ?> client) {
    lag.handling(record, client);
    if (message != null) {
      try {
        count(records.apply(message));
      } catch (Exception e) {
        failed.put(new TopicPartition(record.topic(), record.partition()), record.offset());
        throw failure(name, record, e);
      }
    }
    lag.handled(record, client);
  }

  /**
   * The message of {@code record}, {@code null} to skip it.
   *
   * @throws InboxDeliveryException if the record is invalid
   */
  private InboxMessage read(ConsumerRecord<String, String> record) {
    try {
      return records.read(record);
    } catch (InvalidRecordException e) {
      throw new InboxDeliveryException(name, e, record);
    }
  }

  private void count(InboxRecords.Outcome outcome) {
    if (outcome != InboxRecords.Outcome.SKIPPED) {
      meters.consumed(name, outcome == InboxRecords.Outcome.DUPLICATE);
    }
  }

  /**
   * What {@code consumer} throws for {@code record} that failed with {@code e}: a class of its own
   * for a transient failure, since the error handler starts a record's count and backoff again only
   * when the class of its failure changes. Both as one class, a record that failed for good once
   * and then in an outage was dead-lettered during the outage, and one that failed in an outage and
   * then for good was retried without limit, blocking its partition.
   */
  static BatchListenerFailedException failure(
      String consumer, ConsumerRecord<?, ?> record, Exception e) {
    if (TransientFailures.isTransient(e)) {
      return new TransientInboxException(consumer, e, record);
    }
    return new InboxDeliveryException(consumer, e, record);
  }
}
