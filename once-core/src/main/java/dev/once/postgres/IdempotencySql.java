package dev.once.postgres;

/** Every SQL statement of the idempotency-key aggregate, in one place. */
final class IdempotencySql {
  private IdempotencySql() {}

  /** Non-blocking, released when the transaction ends. */
  static final String TRY_LOCK = "SELECT pg_try_advisory_xact_lock(?)";

  /**
   * The committed key, if any; otherwise the result of a non-blocking try of the advisory lock.
   * CASE evaluates the volatile lock function only when no row was found. set_config(..., true)
   * sets the transaction's idle timeout (the key's lease) for this transaction only.
   */
  static final String FIND_OR_TRY_LOCK =
      """
      SELECT k.fingerprint, k.state, k.status_code, k.content_type, k.location, k.body,
             k.expires_at,
             CASE WHEN k.idem_key IS NULL THEN pg_try_advisory_xact_lock(?) END AS locked,
             set_config('idle_in_transaction_session_timeout', ?, true) AS lease
        FROM (SELECT 1) AS one
        LEFT JOIN once.idempotency_key k ON k.client_id = ? AND k.idem_key = ?
      """;

  static final String INSERT_IF_ABSENT =
      """
      INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, created_at)
      VALUES (?, ?, ?, 'in_progress', ?)
      ON CONFLICT (client_id, idem_key) DO NOTHING
      RETURNING 1
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
