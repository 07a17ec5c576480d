package dev.once.outbox;

import java.util.UUID;

/**
 * A message as written to the outbox.
 *
 * @param id the row's sequence number (delivery order)
 * @param messageId the stable id the receiver sees on every delivery attempt; use it as the
 *     receiver's idempotency key
 */
public record OutboxEntry(long id, UUID messageId) {}
