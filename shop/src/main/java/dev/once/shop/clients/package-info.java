/**
 * Who may call the shop: API clients and their keys ({@link dev.once.shop.clients.ClientService},
 * the admin API under {@code /admin/v1/clients}), the authentication of every {@code /v1} request
 * by its API key and of every {@code /admin} request by the admin token ({@link
 * dev.once.shop.clients.AdminToken}), wired by {@link
 * dev.once.shop.clients.AuthenticationConfiguration}. A controller receives the caller as an {@link
 * dev.once.shop.clients.AuthenticatedClient}; {@link dev.once.shop.clients.Client} is a client as
 * the admin API shows it.
 *
 * <p>Guarantees: authentication runs before Once's idempotency filter and hands it the client id
 * that scopes every key, so a missing, unknown or disabled key is answered 401 before any
 * idempotency key is looked up; a disabled client's keys stop working on its next request, since
 * every key is looked up on every request. Only the SHA-256 of a key is stored; neither a key nor
 * the admin token is ever logged, and the token is compared in constant time. A flood of unknown
 * keys holds at most a fifth of the pool and answers 503 with {@code Retry-After} when its lookups
 * are all busy, so keys that work keep their connections; a key created here works at once.
 *
 * <p>Depends on {@code dev.once.shop.problems}, {@code dev.once.shop.persistence}, {@code
 * dev.once.shop.openapi}, {@code dev.once.embedded.secrets} (the token file, from
 * once-embedded-postgres), the starter's {@code dev.once.spring.web}, {@code dev.once.failures} and
 * {@code dev.once.log}; accounts, payments, stock and orders use it.
 */
package dev.once.shop.clients;
