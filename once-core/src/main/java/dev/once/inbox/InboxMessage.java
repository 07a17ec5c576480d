package dev.once.inbox;

import dev.once.outbox.OutboxRecord;
import dev.once.tracing.TraceContext;
import java.util.Objects;
import java.util.UUID;

/**
 * A message as a consumer receives it, whatever transport brought it.
 *
 * @param messageId the message's stable id, the same on every delivery: the inbox's dedup key
 * @param type the event type, e.g. {@code payment.succeeded}
 * @param aggregateId the business object it concerns
 * @param payloadJson the body, a JSON document
 * @param trace the trace context the message came with (its outbox row's, or its record's
 *     headers'), or {@code null}
 */
public record InboxMessage(
    UUID messageId, String type, String aggregateId, String payloadJson, TraceContext trace) {
  /** A message without a trace context. */
  public InboxMessage(UUID messageId, String type, String aggregateId, String payloadJson) {
    this(messageId, type, aggregateId, payloadJson, null);
  }

  public InboxMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(payloadJson, "payloadJson");
  }

  /** The message an outbox row carries, with the row's trace context. */
  public static InboxMessage of(OutboxRecord row) {
    return new InboxMessage(
        row.messageId(), row.type(), row.aggregateId(), row.payloadJson(), row.trace());
  }

  /** This message with {@code trace} as its trace context ({@code null}: none). */
  public InboxMessage withTrace(TraceContext trace) {
    return new InboxMessage(messageId, type, aggregateId, payloadJson, trace);
  }
}
