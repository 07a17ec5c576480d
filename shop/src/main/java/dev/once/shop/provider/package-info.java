/**
 * The payment provider, seen from the shop: the HTTP client ({@link
 * dev.once.shop.provider.ProviderClient}), the outbox handlers that call it after commit for
 * charges and refunds and record its answers, and the in-process PSP simulator the shop starts when
 * no provider URL is configured.
 */
package dev.once.shop.provider;
