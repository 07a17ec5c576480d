/**
 * Payments and refunds: {@code /v1/payments} charges an account, reads a payment and refunds it;
 * {@link dev.once.shop.payments.PaymentService} does it, one transaction per method (the request's
 * own inside an idempotent request), and settles the provider's answers ({@code settle}, {@code
 * settleRefund}) for the provider's outbox handlers. {@link dev.once.shop.payments.Payment} and
 * {@link dev.once.shop.payments.Refund} follow {@link dev.once.shop.payments.PaymentStatus}: {@code
 * pending} until the provider answers, then {@code succeeded} or {@code failed} for good.
 *
 * <p>Guarantees: the money movement, the payment or refund row and the outbox message for the
 * provider commit together or not at all, and the provider is never called from here (G3). A
 * payment debits its account at once; a declined one gets a {@code reversal} row that gives the
 * whole charge back. A refund moves money only when the provider confirms it: the request reserves
 * its amount on the payment, so the refunds of a payment never add up to more than it, even
 * concurrently, and the confirmation credits the account; a refused refund releases its amount and
 * moves no money. Each money movement is one statement, with no window between a check and a write;
 * a repeated provider answer is a no-op that neither reverses nor publishes twice. A settled
 * payment publishes {@code payment.succeeded} or {@code payment.failed} (written only if something
 * consumes it). The payment of an order is refunded by cancelling the order ({@code
 * payment-belongs-to-order} until then).
 *
 * <p>Depends on {@code dev.once.shop.accounts} (the ledger, money), {@code dev.once.shop.clients},
 * the shop's problems, persistence and OpenAPI packages, {@code dev.once.outbox} and {@code
 * dev.once.spring.outbox}; {@code dev.once.shop.provider} and {@code dev.once.shop.orders} use it.
 */
package dev.once.shop.payments;
