package dev.once.shop.payments;

/**
 * The provider refused a refund, but the account no longer holds the credit the refund gave, so the
 * credit cannot be taken back without a negative balance (G4). Nothing was written; the provider
 * relay retries the row and, once its attempts are spent, leaves it dead for an operator
 * (docs/outbox.md, dead rows).
 */
public final class RefundReversalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RefundReversalException(String refundId) {
    super(
        "The provider refused refund "
            + refundId
            + ", but its account no longer holds the refunded amount to take back.");
  }
}
