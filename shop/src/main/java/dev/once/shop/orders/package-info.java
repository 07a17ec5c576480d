/**
 * Orders: placed over HTTP with an {@code order.placed} event in the same transaction, reserved or
 * rejected by the stock's answer, paid through the idempotent payments path ({@code MarkPaid} on
 * {@code payment.succeeded}), and cancelled with their stock released once and a paid order
 * refunded in full. The state machine and the event flow: docs/orders.md.
 */
package dev.once.shop.orders;
