package dev.once.shop.payments;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A refund of part or all of a succeeded payment: its amount is reserved on the payment at once,
 * the provider is told through the outbox, and the account is credited when the provider confirms
 * it; a refused refund releases the reservation and moves no money.
 *
 * @param id opaque id, {@code ref_...}
 * @param paymentId the refunded payment
 * @param amount positive, in the payment's currency
 * @param status the provider-side status
 * @param operationId the journal row that credited the account: empty until the provider confirmed
 *     the refund, and for good if it refused it
 */
public record Refund(
    String id,
    String paymentId,
    BigDecimal amount,
    PaymentStatus status,
    Optional<String> operationId) {}
