package dev.once.kafka.spring;

import dev.once.failures.TransientFailures;
import dev.once.inbox.InboxMessage;
import dev.once.kafka.InboxRecords;
import dev.once.kafka.InvalidRecordException;
import dev.once.spring.internal.ThreadMark;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
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
 *   <li><b>Lanes by key</b> ({@code once.kafka.consumer.key-lanes} above 1). A partition's records
 *       of one poll are split by key into lanes, each applied as above (one transaction for the
 *       lane, or record by record after a failure) and the lanes concurrently, so a hot partition
 *       is applied by more than one transaction at a time. The call returns once every lane has
 *       finished; if any failed, it throws for the failed record with the lowest offset, so only
 *       offsets before it are committed (every record before it, in every lane, was applied), and
 *       what other lanes applied after it is delivered again and found applied.
 *   <li><b>Not shed.</b> Records are applied inside {@link ThreadMark#ACCEPTED_WORK}, so the
 *       outbox's load shedding never refuses what a consumer appends: the record's event was
 *       accepted upstream, and refusing its effect would only retry it with its partition stalled
 *       behind it.
 *   <li><b>Order per key.</b> A partition's records of one key are applied in offset order, and a
 *       record that fails holds back every later record of its key (in one lane, of its partition)
 *       until it is applied or dead-lettered.
 * </ul>
 *
 * <p>A record that fails inside a batch is tried twice in its first delivery (in the batch, then
 * alone); the error handler counts deliveries, so it is tried at most {@code max-attempts + 1}
 * times. Thread-safe: the container's threads share it, each on partitions of its own.
 */
final class PartitionBatches implements BatchConsumerAwareMessageListener<String, String> {
  private static final Logger log = LoggerFactory.getLogger(PartitionBatches.class);

  /** The most lanes a partition's records of a poll are split into. */
  static final int MAX_LANES = 64;

  private final InboxRecords records;
  private final String name;
  private final TransportMeters meters;
  private final ConsumerLag lag;
  private final int lanes;
  private final Executor laneExecutor;

  /** Per partition, the offset of the record that failed last: its redelivery is applied alone. */
  private final Map<TopicPartition, Long> failed = new ConcurrentHashMap<>();

  /** One lane: each partition's records of a poll in order, as one batch. */
  PartitionBatches(InboxRecords records, TransportMeters meters, ConsumerLag lag) {
    this(records, meters, lag, 1, Runnable::run);
  }

  /**
   * @param lanes lanes per partition's records of a poll (1 to 64), by key
   * @param laneExecutor runs the lanes after the first (which the listener's thread runs itself)
   */
  PartitionBatches(
      InboxRecords records,
      TransportMeters meters,
      ConsumerLag lag,
      int lanes,
      Executor laneExecutor) {
    if (lanes < 1 || lanes > MAX_LANES) {
      throw new IllegalArgumentException("lanes must be 1 to " + MAX_LANES + ": " + lanes);
    }
    this.records = records;
    this.name = records.consumer().name();
    this.meters = meters;
    this.lag = lag;
    this.lanes = lanes;
    this.laneExecutor = Objects.requireNonNull(laneExecutor, "laneExecutor");
  }

  /**
   * The lane of a record with {@code key} among {@code lanes}: the same for every record of a key.
   */
  static int lane(String key, int lanes) {
    return key == null ? 0 : Math.floorMod(key.hashCode(), lanes);
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
   * Applies {@code batch} (valid records; {@code messages}, theirs, {@code null} for a skipped
   * one): in one lane ({@link #applyInOrder}), or split into lanes by key ({@link #applyInLanes}).
   *
   * @throws BatchListenerFailedException for the first record (by offset) that failed
   */
  private void apply(
      List<ConsumerRecord<String, String>> batch,
      List<InboxMessage> messages,
      Consumer<?, ?> client) {
    if (batch.isEmpty()) {
      return;
    }
    Failure failure =
        lanes > 1 && batch.size() > 1
            ? applyInLanes(batch, messages, client)
            : applyInOrder(batch, messages, client);
    if (failure != null) {
      ConsumerRecord<String, String> record = failure.record();
      failed.put(new TopicPartition(record.topic(), record.partition()), record.offset());
      lag.handling(record, client);
      throw failure(name, record, failure.error());
    }
  }

  /**
   * Applies {@code batch} in order: in one transaction if the consumer takes batches and more than
   * one message, else, or after that transaction failed, one record per transaction up to the first
   * that fails.
   *
   * @param client the listener's Kafka consumer, to keep the lag as records are applied; {@code
   *     null} on a lane's thread (a Kafka consumer is used by its own thread only)
   * @return the record that failed and why, or {@code null} if all were applied
   */
  private Failure applyInOrder(
      List<ConsumerRecord<String, String>> batch,
      List<InboxMessage> messages,
      Consumer<?, ?> client) {
    List<InboxMessage> taken = messages.stream().filter(m -> m != null).toList();
    if (records.batches() && taken.size() > 1) {
      handling(batch.get(0), client);
      try {
        List<InboxRecords.Outcome> outcomes =
            ThreadMark.ACCEPTED_WORK.call(() -> records.applyAll(taken));
        meters.transaction(name, taken.size());
        outcomes.forEach(this::count);
        handled(batch.get(batch.size() - 1), client);
        return null;
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
      ConsumerRecord<String, String> record = batch.get(i);
      handling(record, client);
      if (messages.get(i) != null) {
        try {
          InboxMessage message = messages.get(i);
          count(ThreadMark.ACCEPTED_WORK.call(() -> records.apply(message)));
        } catch (Exception e) {
          return new Failure(record, e);
        }
      }
      handled(record, client);
    }
    return null;
  }

  /**
   * Applies {@code batch} split by key into lanes ({@link #lane}), each lane in order as {@link
   * #applyInOrder} applies a batch, in its own transactions, the lanes concurrently: the first on
   * this thread, the others on the lane executor. Returns once every lane has finished.
   *
   * <p>Records of one key are in one lane, so per key they are applied in offset order, and a
   * record that fails holds back the later records of its key (its lane stops there). The failure
   * returned is the one with the lowest offset: every record before it, in every lane, was applied,
   * so the offsets before it may be committed. Records after it that other lanes applied are
   * delivered again from it, and their inbox records make them duplicates.
   *
   * @return the failed record with the lowest offset and why, or {@code null} if all were applied
   */
  private Failure applyInLanes(
      List<ConsumerRecord<String, String>> batch,
      List<InboxMessage> messages,
      Consumer<?, ?> client) {
    List<List<Integer>> byLane = new ArrayList<>(lanes);
    for (int i = 0; i < lanes; i++) {
      byLane.add(new ArrayList<>());
    }
    for (int i = 0; i < batch.size(); i++) {
      byLane.get(lane(batch.get(i).key(), lanes)).add(i);
    }
    lag.handling(batch.get(0), client);
    List<List<Integer>> used = byLane.stream().filter(lane -> !lane.isEmpty()).toList();
    List<CompletableFuture<Failure>> others = new ArrayList<>(used.size() - 1);
    for (List<Integer> lane : used.subList(1, used.size())) {
      others.add(
          CompletableFuture.supplyAsync(() -> applyLane(batch, messages, lane), laneExecutor));
    }
    Failure first = applyLane(batch, messages, used.get(0));
    for (CompletableFuture<Failure> other : others) {
      first = earlier(first, other.join());
    }
    if (first == null) {
      lag.handled(batch.get(batch.size() - 1), client);
    }
    return first;
  }

  /**
   * The records of {@code batch} at {@code indexes} applied in order, off the listener's thread.
   */
  private Failure applyLane(
      List<ConsumerRecord<String, String>> batch,
      List<InboxMessage> messages,
      List<Integer> indexes) {
    List<ConsumerRecord<String, String>> laneRecords = new ArrayList<>(indexes.size());
    List<InboxMessage> laneMessages = new ArrayList<>(indexes.size());
    for (int i : indexes) {
      laneRecords.add(batch.get(i));
      laneMessages.add(messages.get(i));
    }
    try {
      return applyInOrder(laneRecords, laneMessages, null);
    } catch (RuntimeException e) {
      // Not the consumer's failure (applyInOrder catches those): the lane's first record is named,
      // and what the lane applied before is found applied when the partition is read again.
      return new Failure(laneRecords.get(0), e);
    }
  }

  private static Failure earlier(Failure a, Failure b) {
    if (a == null) {
      return b;
    }
    return b == null || a.record().offset() <= b.record().offset() ? a : b;
  }

  private void handling(ConsumerRecord<?, ?> record, Consumer<?, ?> client) {
    if (client != null) {
      lag.handling(record, client);
    }
  }

  private void handled(ConsumerRecord<?, ?> record, Consumer<?, ?> client) {
    if (client != null) {
      lag.handled(record, client);
    }
  }

  /** A record that failed, and its failure. */
  private record Failure(ConsumerRecord<String, String> record, Exception error) {}

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
        count(ThreadMark.ACCEPTED_WORK.call(() -> records.apply(message)));
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
