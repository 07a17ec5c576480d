package dev.once.inbox;

import dev.once.outbox.OutboxRecord;
import java.util.Objects;
import java.util.UUID;

/**
 * A message as a consumer receives it, whatever transport brought it.
 *
 * @param messageId the message's stable id, the same on every delivery: the inbox's dedup key
 * @param type the event type, e.g. {@code payment.succeeded}
 * @param aggregateId the business object it concerns
 * @param payloadJson the body, a JSON document
 */
public record InboxMessage(UUID messageId, String type, String aggregateId, String payloadJson) {
  public InboxMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(payloadJson, "payloadJson");
  }

  /** The message an outbox row carries. */
  public static InboxMessage of(OutboxRecord row) {
    return new InboxMessage(row.messageId(), row.type(), row.aggregateId(), row.payloadJson());
  }
}
