package dev.once.spring.jpa;

import dev.once.spring.events.OnceEvent;
import dev.once.spring.events.OnceEvents;

/**
 * The one place the application publishes its events, in the transaction in progress: the request's
 * (or, for a consumer, the inbox's).
 */
public final class OrderEvents {
  /** The logical name of {@link OrderPlaced}. */
  public static final String ORDER_PLACED = "jpa.order-placed";

  /**
   * An order was placed.
   *
   * @param ref the order's reference
   * @param fail whether the consumer should fail after its reservation is flushed (a test hook)
   */
  @OnceEvent(name = ORDER_PLACED, version = 1)
  public record OrderPlaced(String ref, boolean fail) {}

  private final OnceEvents events;

  OrderEvents(OnceEvents events) {
    this.events = events;
  }

  /** Publishes that {@code order} was placed; its aggregate is the order's tag. */
  void placed(PlacedOrder order) {
    events.publish(order.getTag(), new OrderPlaced(order.getRef(), false));
  }
}
