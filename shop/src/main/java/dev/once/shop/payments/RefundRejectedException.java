package dev.once.shop.payments;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** A refund the payment does not allow; nothing was written. */
public final class RefundRejectedException extends ShopException {
  private static final long serialVersionUID = 1L;

  private RefundRejectedException(ShopProblem problem, String detail) {
    super(problem, detail);
  }

  /** The payment is not (or not yet) {@code succeeded}. */
  static RefundRejectedException notRefundable(PaymentStatus status) {
    return new RefundRejectedException(
        ShopProblem.PAYMENT_NOT_REFUNDABLE,
        "Only succeeded payments can be refunded; this payment is " + status.wireName() + ".");
  }

  /** The payment belongs to an order that is not cancelled: the order's cancellation refunds it. */
  static RefundRejectedException belongsToOrder(String orderStatus) {
    return new RefundRejectedException(
        ShopProblem.PAYMENT_BELONGS_TO_ORDER,
        "This payment belongs to an order that is "
            + orderStatus
            + "; refund it by cancelling the order (POST /v1/orders/{id}/cancel).");
  }

  /** The refund would take the refunded total above the payment's amount. */
  static RefundRejectedException exceedsPayment(String remaining) {
    return new RefundRejectedException(
        ShopProblem.REFUND_EXCEEDS_PAYMENT,
        "The refunds of a payment may not exceed its amount; at most "
            + remaining
            + " is left to refund.");
  }
}
