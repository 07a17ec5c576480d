package dev.once.postgres;

/** Every SQL statement of the inbox aggregate, in one place. */
final class InboxSql {
  private InboxSql() {}

  /**
   * Records a message for a consumer. On a concurrent insert of the same key, PostgreSQL waits for
   * the other transaction: if it commits, this inserts nothing; if it rolls back, this inserts.
   */
  static final String CLAIM =
      """
      INSERT INTO once.inbox (message_id, consumer, received_at)
      VALUES (?, ?, %s)
      ON CONFLICT (message_id, consumer) DO NOTHING
      """
          .formatted(SqlTimes.NOW);

  /**
   * Deletes one bounded batch of records older than the retention by the database's clock, oldest
   * first, walking {@code inbox_received_at_idx}, skipping rows another holds. The rows are found
   * again by their {@code ctid} (a TID scan), which the row lock keeps stable until the statement
   * ends, so no batch size makes the planner join a scan of the whole table. Parameters: retention,
   * limit.
   */
  static final String PURGE =
      """
      DELETE FROM once.inbox
       WHERE ctid = ANY (ARRAY(SELECT ctid
                                 FROM once.inbox
                                WHERE received_at < %s
                                ORDER BY received_at
                                LIMIT ?
                                  FOR UPDATE SKIP LOCKED))
      """
          .formatted(SqlTimes.NOW_MINUS);
}
