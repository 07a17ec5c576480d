package dev.once.outbox;

import java.time.Instant;
import java.util.UUID;

/**
 * A row in the terminal {@code dead} state, for operators.
 *
 * @param id the row's id, used to requeue it
 * @param messageId the message's stable id
 * @param type the message type
 * @param aggregateId the ordering key; later rows of this aggregate wait until this one is requeued
 *     and delivered
 * @param attempts attempts made
 * @param lastError the reason of the last failure
 * @param createdAt when the row was appended
 */
public record DeadMessage(
    long id,
    UUID messageId,
    String type,
    String aggregateId,
    int attempts,
    String lastError,
    Instant createdAt) {}
