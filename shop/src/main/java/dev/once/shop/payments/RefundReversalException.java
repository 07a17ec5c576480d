package dev.once.shop.payments;

/**
 * The provider refused a refund that was credited at request time (accepted before the shop's V6
 * migration, {@code refund.credited_at_request}), but the account no longer holds that credit, so
 * it cannot be taken back without a negative balance (G4). Refunds accepted since V6 credit the
 * account only when the provider confirms them, so their refusal never needs this. Nothing was
 * written; the provider relay retries the row and, once its attempts are spent, leaves it dead for
 * an operator (docs/outbox.md, dead rows).
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
