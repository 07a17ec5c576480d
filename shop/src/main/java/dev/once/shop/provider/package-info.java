/**
 * The payment provider, seen from the shop: the HTTP client ({@link
 * dev.once.shop.provider.ProviderClient}), the outbox handlers that call it after commit for
 * charges and refunds and record its answers. Without {@code shop.provider.url} it calls the {@link
 * dev.once.shop.provider.ProviderEndpoint} of a development default; it never starts a provider
 * itself.
 */
package dev.once.shop.provider;
