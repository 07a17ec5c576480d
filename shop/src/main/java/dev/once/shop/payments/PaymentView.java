package dev.once.shop.payments;

import dev.once.shop.accounts.Money;

/**
 * A payment on the wire, as {@code POST /v1/payments} and {@code POST /v1/orders/{id}/pay} answer
 * it; {@code operationId} is the charge's journal row.
 */
public record PaymentView(
    String id,
    String accountId,
    String amount,
    String currency,
    String status,
    String operationId,
    String refunded) {

  /** The view of {@code payment}. */
  public static PaymentView of(Payment payment) {
    return new PaymentView(
        payment.id(),
        payment.accountId(),
        Money.format(payment.amount()),
        payment.currency(),
        payment.status().wireName(),
        payment.chargeOperationId(),
        Money.format(payment.refunded()));
  }
}
