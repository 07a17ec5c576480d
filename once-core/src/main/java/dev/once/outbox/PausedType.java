package dev.once.outbox;

import java.time.Instant;

/**
 * A message type an operator paused ({@link OutboxAdmin#pause}): no relay, on any instance, claims
 * its rows until it is resumed.
 *
 * @param type the message type
 * @param since when it was paused, by the database's clock
 * @param pausedBy who paused it, as the caller named them (an operator, "once.outbox.relay.paused
 *     -types")
 * @param reason why, as the caller said; may be {@code null}
 */
public record PausedType(String type, Instant since, String pausedBy, String reason) {}
