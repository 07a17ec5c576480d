package dev.once.shop.clients;

/**
 * The client that {@link ApiKeyAuthenticationFilter} authenticated; a controller parameter of this
 * type receives it.
 *
 * @param id the client's id
 */
public record AuthenticatedClient(String id) {}
