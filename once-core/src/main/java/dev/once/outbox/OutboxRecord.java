package dev.once.outbox;

import dev.once.tracing.TraceContext;
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
 * @param trace the trace context stored with the row, or {@code null} (none stored, or a stored
 *     value that is not a valid W3C context); while the starter's delivery span is open, the
 *     context of that span
 */
public record OutboxRecord(
    long id,
    UUID messageId,
    String type,
    String aggregateId,
    String payloadJson,
    int attempt,
    Instant createdAt,
    TraceContext trace) {
  /** A row without a trace context. */
  public OutboxRecord(
      long id,
      UUID messageId,
      String type,
      String aggregateId,
      String payloadJson,
      int attempt,
      Instant createdAt) {
    this(id, messageId, type, aggregateId, payloadJson, attempt, createdAt, null);
  }

  public OutboxRecord {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(payloadJson, "payloadJson");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /** This row with {@code trace} as its trace context ({@code null}: none). */
  public OutboxRecord withTrace(TraceContext trace) {
    return new OutboxRecord(
        id, messageId, type, aggregateId, payloadJson, attempt, createdAt, trace);
  }
}
