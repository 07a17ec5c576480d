package dev.once.shop.payments;

import dev.once.shop.accounts.Money;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A payment on the wire, as {@code POST /v1/payments} and {@code POST /v1/orders/{id}/pay} answer
 * it; {@code operationId} is the charge's journal row.
 */
@Schema(name = "Payment")
public record PaymentView(
    @Schema(example = "pay_7Hn2kQe4Wm9sLx3Bv6TgZa") String id,
    @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w") String accountId,
    @Schema(example = "12.5000") String amount,
    @Schema(example = "EUR") String currency,
    @Schema(
            example = "pending",
            allowableValues = {"pending", "succeeded", "failed"})
        String status,
    @Schema(example = "op_Q2xq1c9rR3mYv0aT8s4n6w", description = "The charge's journal row")
        String operationId,
    @Schema(
            example = "0.0000",
            description =
                "The total of the payment's refunds that are pending or succeeded: reserved when"
                    + " a refund is asked for, released if the provider refuses it")
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
