package dev.once.kafka;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxException;
import dev.once.inbox.InboxMessage;
import dev.once.json.JsonCanonicalizer;
import dev.once.json.MalformedJsonException;
import dev.once.outbox.Completion;
import dev.once.postgres.WalFlush;
import dev.once.tracing.TraceContext;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Applies Kafka records to one {@link InboxConsumer} through the {@link Inbox}, exactly once in
 * effect (G2): one record in a transaction of its own ({@link #apply(ConsumerRecord)}), or, for a
 * {@link BatchInboxConsumer}, the messages of many records in ONE transaction ({@link #applyAll}:
 * their inbox records inserted in one statement, their effects applied in the order given, all
 * committed together or not at all). The caller commits the records' offsets only after the call
 * returned, that is after that transaction committed; so a crash or a rebalance between the two
 * redelivers the records, and the inbox finds them applied and skips them.
 *
 * <p>A record is checked before any transaction opens ({@link #read}): it needs the headers {@link
 * OnceHeaders#MESSAGE_ID} (a UUID) and {@link OnceHeaders#TYPE}, a key (the aggregate id) and a
 * value that is a JSON document; one without is refused with {@link InvalidRecordException}, which
 * no retry can cure. A record of a type the consumer does not take (another type on a shared topic)
 * is skipped. The headers {@link OnceHeaders#TRACEPARENT} and {@link OnceHeaders#TRACESTATE}, when
 * present and valid, become the message's trace context; a malformed one is ignored, never a reason
 * to refuse the record. A consumer of its own should decode values with {@link
 * Utf8ValueDeserializer}, which marks a value that is not UTF-8, so that it is refused too.
 * Thread-safe.
 */
public final class InboxRecords {
  /** What {@link #apply} did with a record. */
  public enum Outcome {
    /** The consumer applied it now. */
    APPLIED,
    /** The consumer had applied it before: a redelivery, absorbed by the inbox. */
    DUPLICATE,
    /** Not of a type the consumer takes. */
    SKIPPED
  }

  /** Deeper than any payload an application writes; what is deeper is refused as malformed. */
  private static final JsonCanonicalizer JSON = JsonCanonicalizer.withMaxDepth(512);

  private final Inbox inbox;
  private final InboxConsumer consumer;
  private final boolean commitAsynchronously;

  /** Records applied in transactions that commit durably. */
  public InboxRecords(Inbox inbox, InboxConsumer consumer) {
    this(inbox, consumer, false);
  }

  /**
   * @param commitAsynchronously whether each transaction commits without waiting for the WAL flush
   *     ({@link WalFlush#commitAsynchronously}), so that its row locks (a hot product's stock) are
   *     released at once. Then the caller must {@link WalFlush#awaitDurable()} before it commits
   *     the records' offsets, as the listeners' consumers do ({@code DurableOffsets}): one WAL
   *     flush per commit of offsets instead of one per transaction.
   */
  public InboxRecords(Inbox inbox, InboxConsumer consumer, boolean commitAsynchronously) {
    this.inbox = Objects.requireNonNull(inbox, "inbox");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.commitAsynchronously = commitAsynchronously;
  }

  /**
   * Joined to each transaction in place of an outbox row's completion: sets it to commit without
   * waiting for the WAL flush. Not a wrapper around the consumer, so that the inbox and its
   * decorators (tracing: one span per message, unless the consumer applies batches itself) see the
   * consumer as it is, a {@link BatchInboxConsumer} or not.
   */
  private static final class AsynchronousCommit implements Completion {
    @Override
    public void completeIn(Connection tx) {
      try {
        WalFlush.commitAsynchronously(tx);
      } catch (SQLException e) {
        throw new InboxException("could not set the transaction to commit asynchronously", e);
      }
    }

    @Override
    public boolean joined() {
      return false;
    }
  }

  private Completion completion() {
    return commitAsynchronously ? new AsynchronousCommit() : Completion.NONE;
  }

  /** The consumer the records are applied to. */
  public InboxConsumer consumer() {
    return consumer;
  }

  /** Whether the consumer takes many messages in one transaction ({@link #applyAll}). */
  public boolean batches() {
    return consumer instanceof BatchInboxConsumer;
  }

  /**
   * Applies {@code record} in a transaction of its own, or finds it applied.
   *
   * @throws InvalidRecordException if the record can never be applied (dead-letter it)
   * @throws Exception what the consumer or the database threw: nothing committed, try again
   */
  public Outcome apply(ConsumerRecord<String, String> record) throws Exception {
    InboxMessage message = read(record);
    return message == null ? Outcome.SKIPPED : apply(message);
  }

  /**
   * Applies {@code message} (read from a record with {@link #read}) in a transaction of its own, or
   * finds it applied.
   *
   * @throws Exception what the consumer or the database threw: nothing committed, try again
   */
  public Outcome apply(InboxMessage message) throws Exception {
    return inbox.deliver(consumer, message, completion()) ? Outcome.APPLIED : Outcome.DUPLICATE;
  }

  /**
   * Applies {@code messages} (read from records with {@link #read}, in their records' order) in ONE
   * transaction ({@link Inbox#deliverAll}): all of them or none.
   *
   * @return per message, in order: {@link Outcome#APPLIED} for the first occurrence of a message
   *     applied now, {@link Outcome#DUPLICATE} for one applied before (or earlier in the list)
   * @throws IllegalStateException if the consumer is not a {@link BatchInboxConsumer}
   * @throws Exception what the consumer or the database threw: nothing committed; deliver the
   *     messages one at a time ({@link #apply(InboxMessage)}) to find the one that fails
   */
  public List<Outcome> applyAll(List<InboxMessage> messages) throws Exception {
    if (!(consumer instanceof BatchInboxConsumer batch)) {
      throw new IllegalStateException(
          "consumer " + consumer.name() + " takes no batches: it is not a BatchInboxConsumer");
    }
    Set<UUID> applied = inbox.deliverAll(batch, messages, completion());
    Set<UUID> counted = new HashSet<>();
    List<Outcome> outcomes = new ArrayList<>(messages.size());
    for (InboxMessage message : messages) {
      boolean now = applied.contains(message.messageId()) && counted.add(message.messageId());
      outcomes.add(now ? Outcome.APPLIED : Outcome.DUPLICATE);
    }
    return outcomes;
  }

  /**
   * The message {@code record} carries for the consumer, or {@code null} if the consumer does not
   * take its type (skip it).
   *
   * @throws InvalidRecordException if it carries none
   */
  public InboxMessage read(ConsumerRecord<String, String> record) {
    String type = header(record, OnceHeaders.TYPE);
    if (type == null || type.isEmpty()) {
      throw new InvalidRecordException("the record has no " + OnceHeaders.TYPE + " header");
    }
    if (!consumer.types().contains(type)) {
      return null;
    }
    return messageOf(record, type);
  }

  /**
   * The message {@code record} carries.
   *
   * @throws InvalidRecordException if it carries none
   */
  public static InboxMessage messageOf(ConsumerRecord<String, String> record, String type) {
    String id = header(record, OnceHeaders.MESSAGE_ID);
    if (id == null) {
      throw new InvalidRecordException("the record has no " + OnceHeaders.MESSAGE_ID + " header");
    }
    UUID messageId;
    try {
      messageId = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new InvalidRecordException(
          "the record's " + OnceHeaders.MESSAGE_ID + " header is not a UUID");
    }
    if (!id.equalsIgnoreCase(messageId.toString())) {
      // UUID.fromString accepts "1-1-1-1-1"; only the canonical form names one message.
      throw new InvalidRecordException(
          "the record's " + OnceHeaders.MESSAGE_ID + " header is not a UUID");
    }
    String key = record.key();
    if (key == null || key.isEmpty()) {
      throw new InvalidRecordException("the record has no key (the aggregate id)");
    }
    String value = record.value();
    if (value == null) {
      throw new InvalidRecordException("the record has no value (a tombstone)");
    }
    if (record.headers().lastHeader(Utf8ValueDeserializer.MALFORMED) != null) {
      // Set by the listeners' deserializer: the value was decoded with replacement characters.
      throw new InvalidRecordException("the record's value is not valid UTF-8 text");
    }
    try {
      JSON.canonicalize(value);
    } catch (MalformedJsonException e) {
      throw new InvalidRecordException(
          "the record's value is not a JSON document: " + e.getMessage());
    }
    return new InboxMessage(messageId, type, key, value, traceOf(record));
  }

  /** The record's trace context, or {@code null} if it has none or a malformed one. */
  static TraceContext traceOf(ConsumerRecord<?, ?> record) {
    String traceparent = header(record, OnceHeaders.TRACEPARENT);
    if (traceparent == null) {
      return null;
    }
    return TraceContext.parse(traceparent, header(record, OnceHeaders.TRACESTATE)).orElse(null);
  }

  /** The last header {@code name} of {@code record} as text, or {@code null}. */
  static String header(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    if (header == null || header.value() == null) {
      return null;
    }
    return new String(header.value(), StandardCharsets.UTF_8);
  }
}
