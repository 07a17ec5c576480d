package dev.once.postgres;

/** Every SQL statement of the idempotency-key aggregate, in one place. */
final class IdempotencySql {
  private IdempotencySql() {}

  /** Non-blocking, released when the transaction ends. */
  static final String TRY_LOCK = "SELECT pg_try_advisory_xact_lock(?)";

  /**
   * The whole claim in one statement, which writes nothing. {@code once.idempotency_key_claim} (V6)
   * reads a committed key without locking; only when there is none does it try the scope's advisory
   * lock, and once it holds the lock it reads the key again with a fresh snapshot, so a key
   * committed by the request that just released the lock is seen and replayed rather than executed
   * again. The lock, held until the transaction ends, is what marks the key in flight: no row is
   * written until the answer is known ({@link #COMPLETE}).
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
      )
      SELECT c.fingerprint, c.state, c.status_code, c.content_type, c.location, c.body,
             c.expires_at, c.locked,
             (SELECT string_agg(name || '=' || value, ', ') FROM lease) AS lease
        FROM once.idempotency_key_claim(?, ?, ?) AS c
      """;

  /**
   * The key's only write: the completed key with its answer, in the claiming transaction, after the
   * handler. It inserts only while this transaction still holds the scope's lock (taken by the
   * claim; taking it again in the same transaction is immediate), so no other request has the key
   * in flight. A row already there is replaced only if it had expired by the claim (parameter 8),
   * which the claim saw; any other row (a key another request committed after the claim's snapshot)
   * is left alone and the statement changes nothing, which the caller must answer by rolling back.
   */
  static final String COMPLETE =
      """
      INSERT INTO once.idempotency_key AS k
             (client_id, idem_key, fingerprint, state, status_code, content_type, location, body,
              created_at, completed_at, expires_at)
      SELECT ?, ?, ?, 'completed', ?, ?, ?, ?, %1$s, %1$s, %1$s
       WHERE pg_try_advisory_xact_lock(?)
      ON CONFLICT (client_id, idem_key) DO UPDATE
         SET fingerprint = excluded.fingerprint, state = 'completed',
             status_code = excluded.status_code, content_type = excluded.content_type,
             location = excluded.location, body = excluded.body, created_at = excluded.created_at,
             completed_at = excluded.completed_at, expires_at = excluded.expires_at
       WHERE k.state = 'completed' AND k.expires_at <= excluded.created_at
      """
          .formatted(SqlTimes.AT);

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
