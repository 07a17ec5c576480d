/**
 * The shop, Once's reference service: {@link dev.once.shop.ShopApplication} starts it, and {@link
 * dev.once.shop.ShopConfiguration} holds its own infrastructure beans: the one clock every
 * timestamp comes from (Once's starter uses it too, so tests can pin time), and the name of the
 * role the application connects as, which the migrations, run as the schema owner, grant exactly
 * what the shop needs. Each capability lives in a package of its own: API clients ({@code
 * clients}), accounts and their ledger ({@code accounts}), payments and refunds ({@code payments})
 * settled through the provider ({@code provider}), products and stock ({@code stock}), orders
 * ({@code orders}), the outbox's admin API ({@code outbox}); below them the problem vocabulary
 * ({@code problems}) and the persistence helpers ({@code persistence}), around them the web layer
 * ({@code web}) and the OpenAPI description ({@code openapi}).
 *
 * <p>Depends on {@code dev.once.spring} only; no package of the shop depends on it. The API, its
 * money format and its error slugs: shop/README.md.
 */
package dev.once.shop;
