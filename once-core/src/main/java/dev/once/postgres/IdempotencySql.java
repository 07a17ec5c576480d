package dev.once.postgres;

/** Every SQL statement of the idempotency-key aggregate, in one place. */
final class IdempotencySql {
  private IdempotencySql() {}

  /**
   * The whole claim in one statement, which writes nothing: {@code once.idempotency_key_claim}
   * (V6). A live answer is returned without any lock (a replay). Otherwise the function tries the
   * scope's advisory lock, which marks the key in flight until the transaction ends; only with the
   * lock does it set the transaction's lease and read the key again, with a fresh snapshot, so a
   * key committed by the request that just released the lock is replayed rather than executed
   * again. No row is written until the answer is known ({@link #COMPLETE}).
   *
   * <p>The claim's time is the database's clock ({@link SqlTimes#NOW}), passed to the function and
   * returned as {@code now_micros} (one value: {@code statement_timestamp()} is constant in a
   * statement): a key live by it is replayed, one expired by it may be replaced. Parameters:
   * client, key, lock id, the lease in milliseconds.
   */
  static final String CLAIM =
      """
      SELECT fingerprint, state, status_code, content_type, location, body, expires_at, locked,
             %1$s AS now_micros
        FROM once.idempotency_key_claim(?, ?, ?, %1$s, ?)
      """
          .formatted(SqlTimes.NOW_MICROS);

  /**
   * The key's only write: the completed key with its answer, in the claiming transaction, after the
   * handler. It inserts only while this transaction still holds the scope's lock (taken by the
   * claim; taking it again in the same transaction is immediate), so no other request has the key
   * in flight. A row already there is replaced only if it had expired by the claim (parameter 8),
   * which the claim saw; any other row (a key another request committed after the claim's snapshot)
   * is left alone and the statement changes nothing, which the caller must answer by rolling back.
   * The key is completed at the database's clock and expires a retention (parameter 9) after it.
   * Parameters: client, key, fingerprint, status, content type, location, body, the claim's time
   * (as the claim returned it), the retention, lock id.
   */
  static final String COMPLETE =
      """
      INSERT INTO once.idempotency_key AS k
             (client_id, idem_key, fingerprint, state, status_code, content_type, location, body,
              created_at, completed_at, expires_at)
      SELECT ?, ?, ?, 'completed', ?, ?, ?, ?, %1$s, %2$s, %3$s
       WHERE pg_try_advisory_xact_lock(?)
      ON CONFLICT (client_id, idem_key) DO UPDATE
         SET fingerprint = excluded.fingerprint, state = 'completed',
             status_code = excluded.status_code, content_type = excluded.content_type,
             location = excluded.location, body = excluded.body, created_at = excluded.created_at,
             completed_at = excluded.completed_at, expires_at = excluded.expires_at
       WHERE k.state = 'completed' AND k.expires_at <= excluded.created_at
      """
          .formatted(SqlTimes.AT, SqlTimes.NOW, SqlTimes.NOW_PLUS);

  /** SQLSTATE of {@code once.idempotency_key_taken()}. */
  static final String KEY_TAKEN = "OI002";

  /**
   * {@link #COMPLETE}, then COMMIT, in one round trip: the driver sends both statements before it
   * waits for an answer. A completion that writes nothing raises {@link #KEY_TAKEN}, which aborts
   * the transaction, so the COMMIT behind it is not executed and the caller rolls back.
   */
  static final String COMPLETE_AND_COMMIT =
      "WITH written AS (\n"
          + COMPLETE
          + "RETURNING 1\n"
          + ")\n"
          + "SELECT once.idempotency_key_taken() WHERE NOT EXISTS (SELECT 1 FROM written);\n"
          + "COMMIT";

  /**
   * Deletes up to a limit of keys expired by the database's clock, oldest first, walking {@code
   * idempotency_key_expires_at_idx}; rows other transactions hold are skipped. The rows are found
   * again by their {@code ctid} (a TID scan: one heap probe per row), which the row lock keeps
   * stable until the statement ends: joining on the primary key instead made the planner hash-join
   * a scan of the whole table at the larger batches of a purge that catches up (10,000 rows).
   * Parameter: limit.
   */
  static final String DELETE_EXPIRED =
      """
      DELETE FROM once.idempotency_key
       WHERE ctid = ANY (ARRAY(SELECT ctid
                                 FROM once.idempotency_key
                                WHERE expires_at <= %s
                                ORDER BY expires_at
                                LIMIT ?
                                  FOR UPDATE SKIP LOCKED))
      """
          .formatted(SqlTimes.NOW);
}
