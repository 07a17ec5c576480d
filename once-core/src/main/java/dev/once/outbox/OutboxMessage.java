package dev.once.outbox;

import dev.once.tracing.TraceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A message to deliver after the surrounding transaction commits.
 *
 * @param type what the relay should do with it, e.g. {@code provider.charge}; 1 to 200 characters
 * @param aggregateId the business object it concerns, e.g. a payment id; 1 to 255 characters
 * @param payloadJson the message body as a JSON document
 * @param trace the trace context stored with the row and carried to its delivery, or {@code null}
 *     for none (the starter fills it in from the current span when a tracer is present)
 * @param notBefore the earliest time it may be delivered, or {@code null} for as soon as it commits
 *     (delayed delivery: {@link #deliverAfter}, {@link #deliverAt})
 */
public record OutboxMessage(
    String type, String aggregateId, String payloadJson, TraceContext trace, NotBefore notBefore) {
  /** A message without a trace context, delivered as soon as it commits. */
  public OutboxMessage(String type, String aggregateId, String payloadJson) {
    this(type, aggregateId, payloadJson, null, null);
  }

  /** A message with a trace context ({@code null}: none), delivered as soon as it commits. */
  public OutboxMessage(String type, String aggregateId, String payloadJson, TraceContext trace) {
    this(type, aggregateId, payloadJson, trace, null);
  }

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

  /** This message with {@code trace} as its trace context ({@code null}: none). */
  public OutboxMessage withTrace(TraceContext trace) {
    return new OutboxMessage(type, aggregateId, payloadJson, trace, notBefore);
  }

  /** This message, not delivered before {@code notBefore} ({@code null}: as soon as it commits). */
  public OutboxMessage withNotBefore(NotBefore notBefore) {
    return new OutboxMessage(type, aggregateId, payloadJson, trace, notBefore);
  }

  /** This message, delivered {@code delay} after its append at the earliest. */
  public OutboxMessage deliverAfter(Duration delay) {
    return withNotBefore(NotBefore.after(delay));
  }

  /** This message, delivered at {@code at} at the earliest. */
  public OutboxMessage deliverAt(Instant at) {
    return withNotBefore(NotBefore.at(at));
  }
}
