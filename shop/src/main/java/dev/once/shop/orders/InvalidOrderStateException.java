package dev.once.shop.orders;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** A change the order's state machine does not allow from its current state; nothing written. */
public final class InvalidOrderStateException extends ShopException {
  private static final long serialVersionUID = 1L;

  private final OrderStatus status;

  InvalidOrderStateException(String orderId, OrderStatus status, String refused) {
    super(
        ShopProblem.INVALID_ORDER_STATE,
        "Order '" + orderId + "' is " + status.wireName() + " and cannot " + refused + ".");
    this.status = status;
  }

  /** The order's status when the change was refused. */
  public OrderStatus status() {
    return status;
  }
}
