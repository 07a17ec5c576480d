package dev.once.spring.jpa;

import dev.once.outbox.OutboxMessage;
import dev.once.spring.outbox.TransactionalOutbox;

/**
 * The one place the application publishes its events, in the transaction in progress: the request's
 * (or, for a consumer, the inbox's).
 */
public final class OrderEvents {
  /** Per run, so that rows left in the shared database by earlier runs are not this run's. */
  public static final String ORDER_PLACED =
      "jpa.order-placed." + java.util.UUID.randomUUID().toString().substring(0, 8);

  private final TransactionalOutbox outbox;

  OrderEvents(TransactionalOutbox outbox) {
    this.outbox = outbox;
  }

  /** Publishes that {@code order} was placed; its aggregate is the order's tag. */
  void placed(PlacedOrder order) {
    outbox.publish(
        new OutboxMessage(ORDER_PLACED, order.getTag(), "{\"ref\":\"" + order.getRef() + "\"}"));
  }
}
