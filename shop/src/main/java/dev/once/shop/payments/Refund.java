package dev.once.shop.payments;

import java.math.BigDecimal;

/**
 * A refund of part or all of a succeeded payment: the account is credited at once, the provider is
 * told through the outbox.
 *
 * @param id opaque id, {@code ref_...}
 * @param paymentId the refunded payment
 * @param amount positive, in the payment's currency
 * @param status the provider-side status
 * @param operationId the journal row that credited the account
 */
public record Refund(
    String id, String paymentId, BigDecimal amount, PaymentStatus status, String operationId) {}
