package dev.once.shop.stock;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.events.OnceEvents;
import java.sql.Connection;
import java.util.List;
import java.util.Set;

/**
 * An inbox consumer of one event type that changes stock, written as a {@link BatchInboxConsumer}
 * rather than an {@code @OnceListener} method so that a batch of events is applied with its
 * products locked once ({@link StockService#reserveAll}, {@link StockService#releaseAll}). Each
 * event is read into its record exactly as a listener method would get it ({@link OnceEvents#read}:
 * strict, upcast to the record's version); an event that cannot be read fails its delivery (the
 * whole batch, which the transport then delivers one event at a time). Applies its effects in the
 * inbox's transaction, which the services' {@code @Transactional} methods join. Thread-safe.
 *
 * @param <E> the event's record
 */
abstract class StockConsumer<E> implements BatchInboxConsumer {
  private final String name;
  private final Class<E> event;
  private final String type;
  private final OnceEvents events;

  StockConsumer(String name, Class<E> event, String type, OnceEvents events) {
    this.name = name;
    this.event = event;
    this.type = type;
    this.events = events;
  }

  /** Applies one event, as the consumer always has. */
  abstract void apply(E event);

  /** Applies a batch of events, in delivery order, with the effect of one {@link #apply} each. */
  abstract void applyAll(List<E> events);

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Set<String> types() {
    return Set.of(type);
  }

  @Override
  public final void consume(Connection tx, InboxMessage message) {
    apply(read(message));
  }

  @Override
  public final void consumeAll(Connection tx, List<InboxMessage> messages) {
    applyAll(messages.stream().map(this::read).toList());
  }

  private E read(InboxMessage message) {
    return events.read(event, message, name);
  }

  @Override
  public String toString() {
    return "consumer " + name + " of " + type;
  }
}
