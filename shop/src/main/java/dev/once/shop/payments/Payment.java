package dev.once.shop.payments;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A payment: money charged from an account at once and sent to the provider through the outbox.
 *
 * @param id opaque id, {@code pay_...}
 * @param accountId the charged account
 * @param amount positive, in {@code currency}
 * @param currency the account's currency
 * @param description the client's free text, if any
 * @param status the provider-side status
 * @param refunded the sum of accepted refunds, never above {@code amount}
 * @param chargeOperationId the journal row that debited the account
 * @param orderId the order it pays, if it was made by paying one ({@code POST
 *     /v1/orders/{id}/pay}); its settlement publishes an event only then
 */
public record Payment(
    String id,
    String accountId,
    BigDecimal amount,
    String currency,
    Optional<String> description,
    PaymentStatus status,
    BigDecimal refunded,
    String chargeOperationId,
    Optional<String> orderId) {}
