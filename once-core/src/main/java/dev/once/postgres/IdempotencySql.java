package dev.once.postgres;

/** Every SQL statement of the idempotency-key aggregate, in one place. */
final class IdempotencySql {
  private IdempotencySql() {}

  /** Non-blocking, released when the transaction ends. */
  static final String TRY_LOCK = "SELECT pg_try_advisory_xact_lock(?)";

  /**
   * The whole claim in one statement. {@code found} reads a committed key without locking; only
   * when there is none does {@code lock} try the advisory lock (a CTE with a volatile function is
   * evaluated once), and only with the lock does {@code inserted} insert the key. A key committed
   * by another transaction after this statement's snapshot makes the insert a no-op (ON CONFLICT
   * sees committed rows), which the caller resolves with {@link #SELECT_ONE}. The two
   * set_config(..., true) calls bound this transaction only (the key's lease): it may neither sit
   * idle nor run one statement for longer than the lease.
   */
  static final String CLAIM =
      """
      WITH found AS (
          SELECT fingerprint, state, status_code, content_type, location, body, expires_at
            FROM once.idempotency_key
           WHERE client_id = ? AND idem_key = ?
      ), lock AS (
          SELECT pg_try_advisory_xact_lock(?) AS locked
           WHERE NOT EXISTS (SELECT 1 FROM found)
      ), inserted AS (
          INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, created_at)
          SELECT ?, ?, ?, 'in_progress', ? FROM lock WHERE locked
          ON CONFLICT (client_id, idem_key) DO NOTHING
          RETURNING 1
      )
      SELECT f.fingerprint, f.state, f.status_code, f.content_type, f.location, f.body,
             f.expires_at,
             (SELECT locked FROM lock) AS locked,
             EXISTS (SELECT 1 FROM inserted) AS inserted,
             set_config('idle_in_transaction_session_timeout', ?, true) AS idle_lease,
             set_config('statement_timeout', ?, true) AS statement_lease
        FROM (SELECT 1) AS one
        LEFT JOIN found f ON true
      """;

  static final String SELECT_ONE =
      """
      SELECT fingerprint, state, status_code, content_type, location, body, expires_at
        FROM once.idempotency_key
       WHERE client_id = ? AND idem_key = ?
      """;

  static final String RECLAIM_EXPIRED =
      """
      UPDATE once.idempotency_key
         SET fingerprint = ?, state = 'in_progress', status_code = NULL, content_type = NULL,
             location = NULL, body = NULL, created_at = ?, completed_at = NULL, expires_at = NULL
       WHERE client_id = ? AND idem_key = ? AND state = 'completed' AND expires_at <= ?
      """;

  static final String COMPLETE =
      """
      UPDATE once.idempotency_key
         SET state = 'completed', status_code = ?, content_type = ?, location = ?, body = ?,
             completed_at = ?, expires_at = ?
       WHERE client_id = ? AND idem_key = ? AND state = 'in_progress'
      """;

  static final String DELETE_EXPIRED =
      """
      DELETE FROM once.idempotency_key k
       USING (SELECT client_id, idem_key
                FROM once.idempotency_key
               WHERE expires_at <= ?
               ORDER BY expires_at
               LIMIT ?
                 FOR UPDATE SKIP LOCKED) expired
       WHERE k.client_id = expired.client_id AND k.idem_key = expired.idem_key
      """;
}
