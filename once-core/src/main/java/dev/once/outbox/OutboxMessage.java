package dev.once.outbox;

import java.util.Objects;

/**
 * A message to deliver after the surrounding transaction commits.
 *
 * @param type what the relay should do with it, e.g. {@code provider.charge}; 1 to 200 characters
 * @param aggregateId the business object it concerns, e.g. a payment id; 1 to 255 characters
 * @param payloadJson the message body as a JSON document
 */
public record OutboxMessage(String type, String aggregateId, String payloadJson) {
  public OutboxMessage {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(payloadJson, "payloadJson");
    if (type.isEmpty() || type.length() > 200) {
      throw new IllegalArgumentException("type must be 1 to 200 characters long");
    }
    if (aggregateId.isEmpty() || aggregateId.length() > 255) {
      throw new IllegalArgumentException("aggregateId must be 1 to 255 characters long");
    }
  }
}
