package dev.once.postgres;

/** Every SQL statement of the outbox aggregate, in one place. */
final class OutboxSql {
  private OutboxSql() {}

  static final String APPEND =
      """
      INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at, created_at)
      VALUES (?, ?, ?, CAST(? AS jsonb), ?, ?)
      RETURNING id
      """;
}
