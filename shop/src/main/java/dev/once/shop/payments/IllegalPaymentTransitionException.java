package dev.once.shop.payments;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** A status change the payment state machine does not allow from the payment's current status. */
public final class IllegalPaymentTransitionException extends ShopException {
  private static final long serialVersionUID = 1L;

  private final PaymentStatus from;
  private final PaymentStatus to;

  IllegalPaymentTransitionException(String paymentId, PaymentStatus from, PaymentStatus to) {
    super(
        ShopProblem.ILLEGAL_PAYMENT_TRANSITION,
        "Payment '"
            + paymentId
            + "' cannot move from "
            + from.wireName()
            + " to "
            + to.wireName()
            + ".");
    this.from = from;
    this.to = to;
  }

  /** The payment's status when the change was refused. */
  public PaymentStatus from() {
    return from;
  }

  /** The refused target status. */
  public PaymentStatus to() {
    return to;
  }
}
