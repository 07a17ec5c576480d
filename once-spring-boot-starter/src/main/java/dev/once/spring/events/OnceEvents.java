package dev.once.spring.events;

import dev.once.inbox.InboxMessage;
import dev.once.outbox.NotBefore;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.outbox.TransactionalOutbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Publishes {@link OnceEvent} records in the current Spring transaction: {@code
 * events.publish(order.id(), new OrderPlaced(...))}. The event is the record's JSON (see {@link
 * EventCodec} for the version), appended through {@link TransactionalOutbox#publish}: it exists if
 * and only if the business writes around it commit, it is written only if something consumes its
 * type, load shedding applies, and the relay is woken after the commit. {@link #read} reads an
 * event back for an inbox consumer of the application's own (one that is not an {@link
 * OnceListener} method, such as a {@link dev.once.inbox.BatchInboxConsumer} applying a batch at
 * once) exactly as a listener method gets it. Thread-safe.
 */
public final class OnceEvents {
  private final TransactionalOutbox outbox;
  private final EventCodec codec;

  OnceEvents(TransactionalOutbox outbox, EventCodec codec) {
    this.outbox = Objects.requireNonNull(outbox, "outbox");
    this.codec = Objects.requireNonNull(codec, "codec");
  }

  /**
   * Publishes {@code event} about {@code aggregateId} in the current transaction.
   *
   * @param aggregateId the business object it concerns, 1 to 255 characters: the ordering key, so
   *     the events of one aggregate are delivered one at a time, in commit order
   * @param event a record annotated with {@link OnceEvent}
   * @return the appended entry, or empty if nothing consumes the event's type
   * @throws IllegalStateException if no Spring transaction is active
   * @throws IllegalArgumentException if {@code event} is not an {@link OnceEvent} record, or writes
   *     the reserved member {@value EventCodec#VERSION}
   * @throws OutboxOverloadedException as {@link TransactionalOutbox#publish}
   */
  public Optional<OutboxEntry> publish(String aggregateId, Object event) {
    return publish(aggregateId, event, null);
  }

  /**
   * Publishes {@code event} as {@link #publish(String, Object)} does, delivered to its consumers no
   * earlier than {@code notBefore} (delayed delivery: {@code NotBefore.after(Duration.ofDays(1))},
   * {@code NotBefore.at(instant)}). The events of {@code aggregateId} published after it wait
   * behind it; the others do not.
   *
   * @param notBefore the earliest delivery, or {@code null} for as soon as the transaction commits
   */
  public Optional<OutboxEntry> publish(String aggregateId, Object event, NotBefore notBefore) {
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(event, "event");
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "OnceEvents.publish needs an active transaction (e.g. @Transactional)");
    }
    EventType type = EventType.of(event.getClass());
    return outbox.publish(
        new OutboxMessage(type.name(), aggregateId, codec.write(type, event))
            .withNotBefore(notBefore));
  }

  /**
   * Publishes {@code events} in the current transaction, in order, each about the aggregate {@code
   * aggregateId} gives it, exactly as {@link #publish(String, Object)} one after the other would,
   * but in one round trip ({@link TransactionalOutbox#publishAll}): for a batch consumer that
   * publishes an event per message it applied, which then holds its locks for one statement instead
   * of one per event.
   *
   * @return per event, in order, the appended entry, or empty if nothing consumes its type
   * @throws IllegalStateException if no Spring transaction is active
   * @throws IllegalArgumentException as {@link #publish(String, Object)}, before anything is
   *     appended
   * @throws OutboxOverloadedException as {@link TransactionalOutbox#publish}
   */
  public <E> List<Optional<OutboxEntry>> publishAll(
      List<E> events, Function<? super E, String> aggregateId) {
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(aggregateId, "aggregateId");
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "OnceEvents.publishAll needs an active transaction (e.g. @Transactional)");
    }
    List<OutboxMessage> messages = new ArrayList<>(events.size());
    for (E event : events) {
      Objects.requireNonNull(event, "event");
      EventType type = EventType.of(event.getClass());
      messages.add(
          new OutboxMessage(
              type.name(),
              Objects.requireNonNull(aggregateId.apply(event), "aggregateId"),
              codec.write(type, event)));
    }
    return outbox.publishAll(messages);
  }

  /**
   * Reads {@code message} into {@code recordType} for {@code consumer}, exactly as an {@link
   * OnceListener} method taking that record gets it: strict JSON, an older version upcast step by
   * step through the {@link EventUpcaster} beans, the record's constructor checks applied (see
   * {@link EventCodec}). For an {@link dev.once.inbox.InboxConsumer} bean written by hand, which
   * decodes in its {@code consume} (or {@code consumeAll}) before it applies anything: what this
   * throws should propagate, so that the inbox rolls the delivery back and the transport retries
   * it, then dead-letters it, as for a listener method.
   *
   * @param recordType an {@link OnceEvent} record whose name is the message's type
   * @param consumer the consumer's name, for the exceptions' messages
   * @throws IllegalArgumentException if {@code recordType} is not an {@link OnceEvent} record, or
   *     the message is of another type
   * @throws EventPayloadException if the payload cannot be read into the record
   * @throws EventVersionException if the event is newer than the record, or an upcaster is missing
   */
  public <E> E read(Class<E> recordType, InboxMessage message, String consumer) {
    Objects.requireNonNull(recordType, "recordType");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(consumer, "consumer");
    EventType type = EventType.of(recordType);
    if (!type.name().equals(message.type())) {
      throw new IllegalArgumentException(
          "Message "
              + message.messageId()
              + " is a "
              + message.type()
              + " event, not a "
              + type.name()
              + " ("
              + recordType.getName()
              + ")");
    }
    return recordType.cast(codec.read(type, message, consumer).event());
  }
}
