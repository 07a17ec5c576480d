package dev.once.outbox;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A committed outbox row as the relay hands it to a {@link MessageHandler}: claimed by this relay
 * under a lease, with no database transaction open.
 *
 * @param id the row's id
 * @param messageId the stable id of the message, the same on every attempt: the receiver's
 *     idempotency key
 * @param type the message type, e.g. {@code provider.charge}
 * @param aggregateId the ordering key: rows of one aggregate are handled one at a time, in commit
 *     order
 * @param payloadJson the message body, a JSON document
 * @param attempt which attempt this is, from 1
 * @param createdAt when the row was appended
 */
public record OutboxRecord(
    long id,
    UUID messageId,
    String type,
    String aggregateId,
    String payloadJson,
    int attempt,
    Instant createdAt) {
  public OutboxRecord {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(payloadJson, "payloadJson");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
