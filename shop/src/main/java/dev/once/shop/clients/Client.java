package dev.once.shop.clients;

import java.time.Instant;
import java.util.Optional;

/**
 * An API client.
 *
 * @param id opaque id, {@code cli_...}
 * @param name the operator's label for it
 * @param disabledAt when its keys stopped working, or empty while it is active
 */
public record Client(String id, String name, Optional<Instant> disabledAt) {}
