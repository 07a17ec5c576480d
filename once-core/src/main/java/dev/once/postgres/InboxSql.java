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
   * Records a batch of messages for a consumer in one statement: the distinct ids in ascending
   * order, so that two transactions recording overlapping batches take the records' locks in one
   * order and never deadlock on them; an id already recorded inserts nothing (a concurrent first
   * delivery of it makes this wait for its end, as {@link #CLAIM}). Returns the ids inserted.
   * Parameters: the consumer, the ids (a uuid array).
   */
  static final String CLAIM_ALL =
      """
      INSERT INTO once.inbox (message_id, consumer, received_at)
      SELECT DISTINCT m.id, CAST(? AS text), %s
        FROM unnest(CAST(? AS uuid[])) AS m(id)
       ORDER BY m.id
      ON CONFLICT (message_id, consumer) DO NOTHING
      RETURNING message_id
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

  /**
   * The consumer name of {@link #WAL_FLUSH}'s record, which no consumer may take (it has a colon).
   */
  static final String WAL_FLUSH_CONSUMER = "once:wal-flush";

  /**
   * The transaction of {@link WalFlush}: it must write WAL before its commit, or PostgreSQL commits
   * it without waiting for the flush even with {@code synchronous_commit = on} (a transaction that
   * only took an id writes no record before its commit and is committed asynchronously). It writes
   * and deletes one inbox record of its own, which no one else ever sees, with the row rights the
   * application's role already has. Parameters: a fresh message id, twice.
   */
  static final String WAL_FLUSH =
      """
      SELECT set_config('synchronous_commit', 'on', true);
      INSERT INTO once.inbox (message_id, consumer, received_at)
      VALUES (CAST(? AS uuid), '%1$s', statement_timestamp());
      DELETE FROM once.inbox WHERE message_id = CAST(? AS uuid) AND consumer = '%1$s'
      """
          .formatted(WAL_FLUSH_CONSUMER);
}
