package dev.once.test.handler;

import dev.once.outbox.OutboxRecord;
import java.time.Instant;
import java.util.UUID;

/** Outbox rows as the relay hands them to a handler, for calling a handler in a test. */
public final class OutboxRecords {
  private OutboxRecords() {}

  /**
   * A row of {@code type} with a new message id, id 0 (no row in a table), attempt 1, created now,
   * without a trace context.
   */
  public static OutboxRecord of(String type, String aggregateId, String payloadJson) {
    return new OutboxRecord(0, UUID.randomUUID(), type, aggregateId, payloadJson, 1, Instant.now());
  }

  /** {@code row} as the relay hands it on attempt {@code attempt}: the same message id. */
  public static OutboxRecord attempt(OutboxRecord row, int attempt) {
    return new OutboxRecord(
        row.id(),
        row.messageId(),
        row.type(),
        row.aggregateId(),
        row.payloadJson(),
        attempt,
        row.createdAt(),
        row.trace());
  }

  /** A copy of {@code row} under a new message id, attempt 1. */
  public static OutboxRecord copy(OutboxRecord row) {
    return new OutboxRecord(
        row.id(),
        UUID.randomUUID(),
        row.type(),
        row.aggregateId(),
        row.payloadJson(),
        1,
        Instant.now(),
        row.trace());
  }
}
