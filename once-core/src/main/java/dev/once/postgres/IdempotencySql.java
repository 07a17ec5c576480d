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
   * sees committed rows), which the caller resolves with {@link #SELECT_ONE}.
   *
   * <p>{@code lease} bounds this transaction (the key's lease, in milliseconds, parameters 1 and
   * 2): it may neither sit idle, nor run one statement, nor (where the server has {@code
   * transaction_timeout}, PostgreSQL 17 and later) last as a whole for longer than the lease. A
   * setting already in force that is stricter (non-zero and not longer) is kept, so a lease never
   * loosens a limit of the session, role or database. The server's own {@code current_setting(...,
   * true)} tells whether it knows {@code transaction_timeout}, in this same statement: no version
   * check, no extra round trip. {@code transaction_timeout}'s timer is armed when the setting first
   * becomes non-zero in a transaction and a later change does not re-arm it, so a looser value is
   * first set to 0 and then to the lease, which arms it from now. {@code set_config(..., true)}
   * lasts until the transaction ends. The {@code lease} column only exists to make the {@code
   * lease} CTE run: PostgreSQL skips a CTE nobody reads.
   */
  static final String CLAIM =
      """
      WITH lease AS (
          SELECT name,
                 CASE WHEN in_force > 0 AND in_force <= ? THEN current_setting(name, true)
                      ELSE set_config(name,
                                      CASE WHEN set_config(name, '0', true) IS NOT NULL
                                           THEN ? END,
                                      true)
                 END AS value
            FROM (SELECT name,
                         extract(epoch FROM current_setting(name, true)::interval) * 1000
                           AS in_force
                    FROM unnest(ARRAY['idle_in_transaction_session_timeout', 'statement_timeout',
                                      'transaction_timeout']) AS name
                   WHERE current_setting(name, true) IS NOT NULL) AS settings
      ), found AS (
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
             (SELECT string_agg(name || '=' || value, ', ') FROM lease) AS lease
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
