package dev.once.spring.events;

import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.outbox.TransactionalOutbox;
import java.util.Objects;
import java.util.Optional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Publishes {@link OnceEvent} records in the current Spring transaction: {@code
 * events.publish(order.id(), new OrderPlaced(...))}. The event is the record's JSON (see {@link
 * EventCodec} for the version), appended through {@link TransactionalOutbox#publish}: it exists if
 * and only if the business writes around it commit, it is written only if something consumes its
 * type, load shedding applies, and the relay is woken after the commit. Thread-safe.
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
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(event, "event");
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "OnceEvents.publish needs an active transaction (e.g. @Transactional)");
    }
    EventType type = EventType.of(event.getClass());
    return outbox.publish(new OutboxMessage(type.name(), aggregateId, codec.write(type, event)));
  }
}
