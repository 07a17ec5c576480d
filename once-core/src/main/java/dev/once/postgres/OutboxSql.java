package dev.once.postgres;

/**
 * Every SQL statement of the outbox aggregate, in one place. The indexes these statements walk are
 * created by {@code V2__outbox.sql}, {@code V4__relay.sql} and {@code V7__held_rows.sql}; the
 * functions they call by {@code V7__held_rows.sql}.
 */
final class OutboxSql {
  private OutboxSql() {}

  /**
   * The first key of the two-key advisory lock an append takes on its aggregate ("Once" in ASCII),
   * so that Once's locks do not collide with an application's single-key advisory locks.
   */
  static final int AGGREGATE_LOCK_NAMESPACE = 0x4f6e6365;

  /**
   * Inserts a row after taking the transaction-scoped advisory lock of its aggregate. The lock is
   * taken in the sub-select that produces the row, so it is held before the identity default draws
   * the id; a second transaction appending for the same aggregate waits until the first ends and
   * draws a larger id: ids per aggregate are in commit order. The sub-select calls a volatile
   * function ({@code once.outbox_lock_aggregate}), which keeps PostgreSQL from flattening it away,
   * and which says, with a snapshot taken after the lock, whether the aggregate has a dead or held
   * row, so that the new row is held behind it. The row is created, and due, at the database's
   * clock. The trace context ({@code V8__trace_context.sql}) is NULL for a message without one. A
   * delayed message is due later: at the append's time plus its delay (in microseconds, 0 for
   * none), or at its instant if that is later (NULL for none); the claim's due test and order then
   * keep it, and the rows of its aggregate after it, until then. Parameters: message id, type,
   * aggregate id, payload, traceparent, tracestate, delay in microseconds, not-before instant, type
   * (for the pause), aggregate id (for the lock). A row of a paused type ({@code
   * V10__paused_types.sql}) is marked paused, out of the claim's index. A batch of appends runs
   * this statement once per message in one JDBC batch (one round trip), the driver adding {@code
   * RETURNING id}.
   */
  static final String APPEND_ROW =
      """
      INSERT INTO once.outbox (message_id, type, aggregate_id, payload, traceparent, tracestate,
                               next_attempt_at, created_at, held, paused)
      SELECT ?, ?, ?, CAST(? AS jsonb), ?, ?,
             GREATEST(now.at + CAST(? AS bigint) * INTERVAL '1 microsecond',
                      COALESCE(CAST(? AS timestamptz), now.at)),
             now.at, aggregate_lock.held,
             EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = ?)
        FROM (SELECT %s AS at) AS now,
             (SELECT once.outbox_lock_aggregate(%d, ?) AS held) AS aggregate_lock
      """
          .formatted(SqlTimes.NOW, AGGREGATE_LOCK_NAMESPACE);

  /** {@link #APPEND_ROW}, returning the row's id. */
  static final String APPEND = APPEND_ROW + "RETURNING id\n";

  /**
   * Set in the claim's transaction, before the claim is planned. A claim must walk {@code
   * outbox_due_free_idx} in due order and stop after {@code limit} rows; with statistics that lag a
   * sudden backlog (a bulk of rows appended since the last ANALYZE, a provider outage), the planner
   * otherwise picks a bitmap scan that tests every due row against the per-aggregate rule and sorts
   * them all: measured 40,000 buffers and 90-180 ms per claim on a 20,000-row backlog, against a
   * few dozen buffers for the ordered scan. Losing a claim in a crash only delays the rows until
   * their lease runs out, so the claim's commit need not wait for the WAL flush.
   */
  static final String CLAIM_SETTINGS =
      "SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off;"
          + " SET LOCAL synchronous_commit = off";

  /**
   * Claims due rows: pending, not held, due, not leased, of a handled type that is not paused, and
   * the first undelivered row of their aggregate. Walks {@code outbox_due_free_idx} in due order,
   * which holds no row held behind a dead one and no row marked paused, however many there are; the
   * NOT EXISTS probes {@code outbox_aggregate_idx}. The pause is probed per candidate row on {@code
   * outbox_pause_pkey}, kept a filter by {@code OFFSET 0} (pulled up into a join, the planner may
   * hash it and give up the ordered walk, or re-plan the aggregate probe); the pause is the rule,
   * the mark only where the claim looks. Rows a concurrent claim holds locked are skipped, and a
   * row it claimed and committed meanwhile fails the lease test on re-check. The update finds the
   * claimed rows by {@code id = ANY (ARRAY(...))}, an index probe per row; a join with the CTE lets
   * the planner choose a hash join over a scan of the whole table. Due and lease are judged, and
   * the lease is written, by the database's clock, one value for the whole statement: a relay whose
   * clock runs ahead cannot take over rows whose lease another relay still renews. The trace
   * context is only returned: it changes neither what is claimed nor how. Parameters: types, limit,
   * claim id, lease.
   */
  static final String CLAIM =
      """
      WITH due AS (
        SELECT o.id
          FROM once.outbox o
         WHERE o.state = 'pending'
           AND NOT o.held
           AND NOT o.paused
           AND o.next_attempt_at <= %1$s
           AND (o.lease_until IS NULL OR o.lease_until <= %1$s)
           AND o.type = ANY (?)
           AND NOT EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = o.type OFFSET 0)
           AND NOT EXISTS (SELECT 1
                             FROM once.outbox e
                            WHERE e.aggregate_id = o.aggregate_id
                              AND e.id < o.id
                              AND e.state NOT IN ('delivered', 'discarded'))
         ORDER BY o.next_attempt_at, o.id
         LIMIT ?
           FOR UPDATE OF o SKIP LOCKED
      )
      UPDATE once.outbox o
         SET claim_id = ?, lease_until = %2$s, attempts = o.attempts + 1
       WHERE o.id = ANY (ARRAY(SELECT id FROM due))
      RETURNING o.id, o.message_id, o.type, o.aggregate_id, o.payload::text, o.attempts,
                o.created_at, o.next_attempt_at, o.traceparent, o.tracestate
      """
          .formatted(SqlTimes.NOW, SqlTimes.NOW_PLUS);

  /**
   * The outcomes below commit without waiting for the WAL flush ({@code synchronous_commit = off}
   * for their own transaction only, set inside the statement so it stays one round trip). Losing
   * one in a crash is safe: the row stays pending, its lease runs out, and it is handled again,
   * which handlers must allow anyway (at least once). A later synchronous commit, such as the
   * handler's own, still flushes everything before it.
   */
  private static final String ASYNC_COMMIT =
      "(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit";

  /** Delivered at the database's clock. Parameters: id, claim id. */
  static final String COMPLETE =
      """
      UPDATE once.outbox
         SET state = 'delivered', delivered_at = %s, claim_id = NULL, lease_until = NULL
        FROM %s
       WHERE id = ? AND claim_id = ? AND state = 'pending'
      """
          .formatted(SqlTimes.NOW, ASYNC_COMMIT);

  /** {@link #COMPLETE} when delivered rows are not kept. Parameters: id, claim id. */
  static final String COMPLETE_DELETE =
      """
      DELETE FROM once.outbox
       USING %s
       WHERE id = ? AND claim_id = ? AND state = 'pending'
      """
          .formatted(ASYNC_COMMIT);

  /**
   * {@link #COMPLETE} in a handler's transaction, which keeps its own durability. Parameters: id,
   * claim id.
   */
  static final String COMPLETE_IN =
      """
      UPDATE once.outbox
         SET state = 'delivered', delivered_at = %s, claim_id = NULL, lease_until = NULL
       WHERE id = ? AND claim_id = ? AND state = 'pending'
      """
          .formatted(SqlTimes.NOW);

  /** {@link #COMPLETE_IN} when delivered rows are not kept. Parameters: id, claim id. */
  static final String COMPLETE_DELETE_IN =
      """
      DELETE FROM once.outbox
       WHERE id = ? AND claim_id = ? AND state = 'pending'
      """;

  /**
   * {@link #COMPLETE} for a batch, in one statement and a short transaction of its own that commits
   * without waiting for the WAL flush: each row completed only if its own claim still holds it (the
   * fence is per row, as in {@link #COMPLETE}); one primary-key probe per row. Returns the ids
   * completed. Parameters: ids, claim ids (arrays of equal length, ids ascending).
   */
  static final String COMPLETE_ALL =
      """
      UPDATE once.outbox o
         SET state = 'delivered', delivered_at = %s, claim_id = NULL, lease_until = NULL
        FROM %s,
             unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
       WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
      RETURNING o.id
      """
          .formatted(SqlTimes.NOW, ASYNC_COMMIT);

  /** {@link #COMPLETE_ALL} when delivered rows are not kept. Parameters: ids, claim ids. */
  static final String COMPLETE_ALL_DELETE =
      """
      DELETE FROM once.outbox o
       USING %s,
             unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
       WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
      RETURNING o.id
      """
          .formatted(ASYNC_COMMIT);

  /**
   * {@link #COMPLETE_ALL} in a handler's transaction, which keeps its own durability. Parameters:
   * ids, claim ids.
   */
  static final String COMPLETE_ALL_IN =
      """
      UPDATE once.outbox o
         SET state = 'delivered', delivered_at = %s, claim_id = NULL, lease_until = NULL
        FROM unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
       WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
      RETURNING o.id
      """
          .formatted(SqlTimes.NOW);

  /** {@link #COMPLETE_ALL_IN} when delivered rows are not kept. Parameters: ids, claim ids. */
  static final String COMPLETE_ALL_DELETE_IN =
      """
      DELETE FROM once.outbox o
       USING unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
       WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
      RETURNING o.id
      """;

  /**
   * Moves the rows a {@code DELETE ... RETURNING} of the outbox (aliased {@code o}) removes into
   * the archive ({@code V11__outbox_archive.sql}), in the same statement: the archive mode's
   * completion. The archived row is {@code delivered} at the database's clock; its partition (the
   * day of that time) must exist, which the relay's housekeeping sees to days ahead.
   *
   * @param delete the delete, with its conditions, without a RETURNING clause
   * @param returningIds whether the statement returns the ids it moved (the batch completions)
   */
  private static String archiving(String delete, boolean returningIds) {
    return moving(delete, "'delivered'", SqlTimes.NOW, returningIds);
  }

  /**
   * A delete of outbox rows (aliased {@code o}) whose rows are inserted into the archive in the
   * same statement, with the given state and {@code delivered_at} (SQL expressions over the deleted
   * row's columns).
   */
  private static String moving(
      String delete, String state, String deliveredAt, boolean returningIds) {
    return """
        WITH moved AS (
        %s RETURNING o.id, o.message_id, o.type, o.aggregate_id, o.payload, o.state, o.attempts,
                  o.created_at, o.delivered_at, o.last_error, o.traceparent, o.tracestate
        )
        INSERT INTO once.outbox_archive (id, message_id, type, aggregate_id, payload, state,
                                         attempts, created_at, delivered_at, last_error,
                                         traceparent, tracestate)
        SELECT id, message_id, type, aggregate_id, payload, %s, attempts, created_at,
               %s, last_error, traceparent, tracestate
          FROM moved
        %s"""
        .formatted(delete.strip(), state, deliveredAt, returningIds ? "RETURNING id\n" : "");
  }

  /** {@link #COMPLETE_DELETE}, archiving the row. Parameters: id, claim id. */
  static final String COMPLETE_ARCHIVE =
      archiving(
          """
          DELETE FROM once.outbox o
           USING %s
           WHERE o.id = ? AND o.claim_id = ? AND o.state = 'pending'
          """
              .formatted(ASYNC_COMMIT),
          false);

  /** {@link #COMPLETE_DELETE_IN}, archiving the row. Parameters: id, claim id. */
  static final String COMPLETE_ARCHIVE_IN =
      archiving(
          """
          DELETE FROM once.outbox o
           WHERE o.id = ? AND o.claim_id = ? AND o.state = 'pending'
          """,
          false);

  /** {@link #COMPLETE_ALL_DELETE}, archiving the rows. Parameters: ids, claim ids. */
  static final String COMPLETE_ALL_ARCHIVE =
      archiving(
          """
          DELETE FROM once.outbox o
           USING %s,
                 unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
           WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
          """
              .formatted(ASYNC_COMMIT),
          true);

  /** {@link #COMPLETE_ALL_DELETE_IN}, archiving the rows. Parameters: ids, claim ids. */
  static final String COMPLETE_ALL_ARCHIVE_IN =
      archiving(
          """
          DELETE FROM once.outbox o
           USING unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS done(id, claim_id)
           WHERE o.id = done.id AND o.claim_id = done.claim_id AND o.state = 'pending'
          """,
          true);

  /**
   * The ids of the oldest finished rows (delivered, discarded) older than the retention before the
   * database's clock, walking {@code outbox_delivered_idx}; rows a concurrent purge holds are
   * skipped rather than waited for. Used as {@code id = ANY (ARRAY(...))}, which probes the primary
   * key per row, where {@code id IN (...)} may hash-join a scan of the whole table. Parameters:
   * retention, limit.
   */
  private static final String OLDEST_FINISHED =
      """
      SELECT id
        FROM once.outbox
       WHERE state IN ('delivered', 'discarded')
         AND delivered_at < %s
       ORDER BY delivered_at
       LIMIT ?
         FOR UPDATE SKIP LOCKED"""
          .formatted(SqlTimes.NOW_MINUS);

  /**
   * The archive mode's purge: moves the oldest finished rows (discarded ones: completions archive
   * their own rows) older than the retention into the archive, each with its state and {@code
   * delivered_at}, walking {@code outbox_delivered_idx}. Parameters: retention, limit.
   */
  static final String PURGE_TO_ARCHIVE =
      moving(
          "DELETE FROM once.outbox o WHERE o.id = ANY (ARRAY(%s))".formatted(OLDEST_FINISHED),
          "state",
          "delivered_at",
          false);

  /**
   * Makes the archive's missing day partitions (UTC days, the database's clock) from the oldest day
   * a row may still be moved for, through {@code days ahead} days after today. That oldest day is
   * yesterday, or the day of the oldest finished row still in the outbox (rows kept by a delivered
   * retention, or finished before the archive was turned on) if earlier, but never before the
   * archive's retention (older rows are deleted, not archived). The oldest finished row is one step
   * along {@code outbox_delivered_idx}. Parameters: days ahead, retention in days.
   */
  static final String ARCHIVE_PREPARE =
      """
      SELECT once.outbox_archive_prepare(%1$d, first.day, today.day + ? - first.day + 1)
        FROM (SELECT CAST((%2$s AT TIME ZONE 'UTC') AS date) AS day) AS today,
             LATERAL (SELECT GREATEST(today.day - ?,
                                      LEAST(today.day - 1,
                                            CAST((min(delivered_at) AT TIME ZONE 'UTC') AS date)))
                               AS day
                        FROM once.outbox
                       WHERE state IN ('delivered', 'discarded')) AS first
      """
          .formatted(AGGREGATE_LOCK_NAMESPACE, SqlTimes.NOW);

  /**
   * Drops the archive's day partitions older than the retention in days. Parameters: days kept,
   * lock time-out in milliseconds.
   */
  static final String ARCHIVE_DROP =
      "SELECT once.outbox_archive_drop(%d, CAST((%s AT TIME ZONE 'UTC') AS date) - ?, ?)"
          .formatted(AGGREGATE_LOCK_NAMESPACE, SqlTimes.NOW);

  /**
   * Records a replay ({@code V12__outbox_replay.sql}) unless its id is taken; returns the time it
   * was requested if this call recorded it. Parameters: id, type, from, to, aggregate id, consumer,
   * requested by.
   */
  static final String REPLAY_RECORD =
      """
      INSERT INTO once.outbox_replay (id, type, from_at, to_at, aggregate_id, consumer,
                                      requested_by, requested_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, %s)
      ON CONFLICT (id) DO NOTHING
      RETURNING requested_at
      """
          .formatted(SqlTimes.NOW);

  private static final String REPLAY_COLUMNS =
      "id, type, from_at, to_at, aggregate_id, consumer, requested_by, requested_at, rows,"
          + " forgotten";

  /** A replay's record. Parameter: id. */
  static final String REPLAY_FIND =
      "SELECT " + REPLAY_COLUMNS + " FROM once.outbox_replay WHERE id = ?";

  /** The latest replays, newest first. Parameter: limit. */
  static final String REPLAYS =
      "SELECT "
          + REPLAY_COLUMNS
          + " FROM once.outbox_replay ORDER BY requested_at DESC, id LIMIT ?";

  /** What a replay did. Parameters: rows, forgotten, id. */
  static final String REPLAY_DONE =
      "UPDATE once.outbox_replay SET rows = ?, forgotten = ? WHERE id = ?";

  /**
   * The archived rows a replay takes: delivered (a discarded row was never delivered), of the type,
   * created in the window, of the aggregate if one is given. Walks {@code outbox_archive_type_idx};
   * {@code delivered_at >= from} (a row is delivered after it is created) prunes the partitions of
   * earlier days. Parameters: type, from, to, from, aggregate id, aggregate id.
   */
  private static final String REPLAY_WINDOW =
      """
        FROM once.outbox_archive a
       WHERE a.type = ?
         AND a.created_at >= ? AND a.created_at < ?
         AND a.delivered_at >= ?
         AND a.state = 'delivered'
         AND (CAST(? AS text) IS NULL OR a.aggregate_id = ?)
      """;

  /** How many rows the window holds, counted up to a limit. Parameters: the window's, limit. */
  static final String REPLAY_COUNT =
      "SELECT count(*) FROM (SELECT 1 " + REPLAY_WINDOW + " LIMIT ?) AS w";

  /**
   * Forgets one consumer's inbox records of the window's messages. Parameters: consumer, the
   * window's.
   */
  static final String REPLAY_FORGET =
      "DELETE FROM once.inbox i WHERE i.consumer = ? AND i.message_id IN (SELECT a.message_id "
          + REPLAY_WINDOW
          + ")";

  /**
   * Appends a copy of each of the window's rows to the outbox, once per message id, in creation
   * order (ids drawn in that order), due and created now, marked paused if its type is; a message
   * still in the outbox is skipped. No aggregate lock is taken (a replay may span thousands of
   * aggregates): the claim's rule, not the append's lock, keeps an aggregate's rows in order, and a
   * row behind a dead one waits behind it all the same. Parameters: the window's.
   */
  static final String REPLAY_APPEND =
      """
      INSERT INTO once.outbox (message_id, type, aggregate_id, payload, traceparent, tracestate,
                               next_attempt_at, created_at, paused)
      SELECT r.message_id, r.type, r.aggregate_id, r.payload, r.traceparent, r.tracestate,
             %1$s, %1$s, EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = r.type)
        FROM (SELECT DISTINCT ON (a.message_id) a.*
              %2$s
               ORDER BY a.message_id, a.id) AS r
       ORDER BY r.created_at, r.id
      ON CONFLICT (message_id) DO NOTHING
      """
          .formatted(SqlTimes.NOW, REPLAY_WINDOW);

  /**
   * The heartbeat: extends the lease of every row still held by the claim it was taken with, one
   * primary-key probe per row; changes no indexed column, so it stays a heap-only update. The lease
   * runs a lease from the database's clock. Parameters: lease, ids, claim ids (arrays of equal
   * length).
   */
  static final String RENEW =
      """
      UPDATE once.outbox o
         SET lease_until = %s
        FROM %s,
             unnest(CAST(? AS bigint[]), CAST(? AS uuid[])) AS held(id, claim_id)
       WHERE o.id = held.id AND o.claim_id = held.claim_id AND o.state = 'pending'
      """
          .formatted(SqlTimes.NOW_PLUS, ASYNC_COMMIT);

  /**
   * Due again a delay (the relay's backoff) after the database's clock. Parameters: delay, error,
   * id, claim id.
   */
  static final String RETRY_LATER =
      """
      UPDATE once.outbox
         SET next_attempt_at = %s, last_error = ?, claim_id = NULL, lease_until = NULL
        FROM %s
       WHERE id = ? AND claim_id = ? AND state = 'pending'
      """
          .formatted(SqlTimes.NOW_PLUS, ASYNC_COMMIT);

  /**
   * Moves the row to dead and holds the later rows of its aggregate, under the aggregate's lock
   * ({@code once.outbox_bury}). Parameters: id, claim id, error.
   */
  static final String BURY =
      """
      SELECT once.outbox_bury(%d, ?, ?, ?)
        FROM %s
      """
          .formatted(AGGREGATE_LOCK_NAMESPACE, ASYNC_COMMIT);

  /**
   * Moves a dead row back to pending and releases the rows held behind it, under the aggregate's
   * lock ({@code once.outbox_requeue}); keeps {@code last_error} as history of why it died. Due at
   * the database's clock. Parameter: id.
   */
  static final String REQUEUE =
      "SELECT once.outbox_requeue(%d, ?, %s)".formatted(AGGREGATE_LOCK_NAMESPACE, SqlTimes.NOW);

  /**
   * Moves a dead row to discarded and releases the rows held behind it, under the aggregate's lock
   * ({@code once.outbox_discard}, {@code V9__discarded_rows.sql}); keeps {@code last_error} and the
   * payload. Parameter: id.
   */
  static final String DISCARD =
      "SELECT once.outbox_discard(%d, ?, %s)".formatted(AGGREGATE_LOCK_NAMESPACE, SqlTimes.NOW);

  /** Walks {@code outbox_dead_idx}. Parameters: after id, limit. */
  static final String DEAD =
      """
      SELECT id, message_id, type, aggregate_id, attempts, last_error, created_at
        FROM once.outbox
       WHERE state = 'dead' AND id > ?
       ORDER BY id
       LIMIT ?
      """;

  /**
   * Per type, the rows not delivered: pending (not held), held, dead. Reads the rows that are not
   * delivered (the backlog and the dead rows), an operator's question asked on demand, not in a
   * loop.
   */
  static final String COUNTS_BY_TYPE =
      """
      SELECT type,
             count(*) FILTER (WHERE state = 'pending' AND NOT held) AS pending,
             count(*) FILTER (WHERE state = 'pending' AND held) AS held,
             count(*) FILTER (WHERE state = 'dead') AS dead
        FROM once.outbox
       WHERE state IN ('pending', 'dead')
       GROUP BY type
       ORDER BY type
      """;

  /**
   * Pauses a type; nothing if it is paused already. Returns true if this call paused it (no row if
   * not). Parameters: type, paused by, reason.
   */
  static final String PAUSE =
      """
      INSERT INTO once.outbox_pause (type, paused_at, paused_by, reason)
      VALUES (?, %s, ?, ?)
      ON CONFLICT (type) DO NOTHING
      RETURNING true
      """
          .formatted(SqlTimes.NOW);

  /**
   * Marks the pending and dead rows of a paused type paused, taking them out of the claim's index;
   * run after {@link #PAUSE} committed, so it sees every row appended before the pause (an append
   * after it marks its own row). Nothing if the type is not paused (a resume came first).
   * Parameters: type, type.
   */
  static final String MARK_PAUSED =
      """
      UPDATE once.outbox
         SET paused = true
       WHERE type = ? AND state IN ('pending', 'dead') AND NOT paused
         AND EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = ?)
      """;

  /** Resumes a type. Returns true if it was paused (no row if not). Parameter: type. */
  static final String RESUME = "DELETE FROM once.outbox_pause WHERE type = ? RETURNING true";

  /**
   * Clears the mark on the rows of a resumed type, walking {@code outbox_paused_idx}; nothing if
   * the type was paused again meanwhile. Parameters: type, type.
   */
  static final String UNMARK_PAUSED =
      """
      UPDATE once.outbox
         SET paused = false
       WHERE type = ? AND paused
         AND NOT EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = ?)
      """;

  /**
   * Housekeeping: clears the mark on rows whose type is not paused (an append that read the pause
   * just before a resume deleted it, and committed after the resume cleared the marks). Finds the
   * marked types by a loose scan of {@code outbox_paused_idx}, one probe per distinct type, not a
   * walk of every marked row; an empty index costs one probe.
   */
  static final String UNMARK_RESUMED =
      """
      WITH RECURSIVE marked AS (
        (SELECT type FROM once.outbox WHERE paused ORDER BY type LIMIT 1)
        UNION ALL
        SELECT (SELECT o.type FROM once.outbox o
                 WHERE o.paused AND o.type > marked.type ORDER BY o.type LIMIT 1)
          FROM marked
         WHERE marked.type IS NOT NULL
      )
      UPDATE once.outbox o
         SET paused = false
       WHERE o.paused
         AND o.type IN (SELECT m.type FROM marked m
                         WHERE m.type IS NOT NULL
                           AND NOT EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = m.type))
      """;

  /** The paused types, in type order. */
  static final String PAUSED =
      "SELECT type, paused_at, paused_by, reason FROM once.outbox_pause ORDER BY type";

  /** The payload of dead row {@code id}, as stored. Parameter: id. */
  static final String DEAD_PAYLOAD =
      "SELECT payload::text FROM once.outbox WHERE id = ? AND state = 'dead'";

  /**
   * Deletes the oldest delivered rows, walking {@code outbox_delivered_idx}; rows a concurrent
   * purge holds are skipped rather than waited for. {@code id = ANY (ARRAY(...))} probes the
   * primary key per row, where {@code id IN (...)} may hash-join a scan of the whole table. The
   * cut-off is the retention before the database's clock. Parameters: retention, limit.
   */
  static final String PURGE_DELIVERED =
      """
      DELETE FROM once.outbox
       WHERE id = ANY (ARRAY(%s))
      """
          .formatted(OLDEST_FINISHED);

  /**
   * Backlog (pending rows, held ones included), oldest due time (of rows not held behind a dead
   * one, from {@code outbox_due_free_idx}), dead rows ({@code outbox_dead_idx}) and the database's
   * clock, which the age is measured against.
   */
  static final String STATS =
      """
      SELECT (SELECT count(*) FROM once.outbox WHERE state = 'pending') AS backlog,
             (SELECT min(next_attempt_at) FROM once.outbox
               WHERE state = 'pending' AND NOT held AND NOT paused
                 AND next_attempt_at <= %1$s) AS oldest_due,
             (SELECT count(*) FROM once.outbox WHERE state = 'dead') AS dead,
             %1$s AS now
      """
          .formatted(SqlTimes.NOW);

  /**
   * The due time of the oldest row the relay could claim now, whatever its type: pending, its next
   * attempt time come, no lease running on it, and the first undelivered row of its aggregate (the
   * claim's rule). A row in flight, in backoff or held back behind an earlier row of its aggregate
   * (a dead one, say) is not waiting for the relay, so it does not count. Walks {@code
   * outbox_due_free_idx} in due order (rows held behind a dead one or paused are not in it; a row
   * of a paused type is not waiting for the relay either) and stops at the first such row (no
   * count): run it after {@link #CLAIM_SETTINGS}, which keeps a planner with lagging statistics
   * from testing every due row. Due, lease and age are the database's clock.
   */
  static final String OLDEST_CLAIMABLE =
      """
      SELECT o.next_attempt_at, %1$s
        FROM once.outbox o
       WHERE o.state = 'pending'
         AND NOT o.held
         AND NOT o.paused
         AND o.next_attempt_at <= %1$s
         AND (o.lease_until IS NULL OR o.lease_until <= %1$s)
         AND NOT EXISTS (SELECT 1 FROM once.outbox_pause p WHERE p.type = o.type OFFSET 0)
         AND NOT EXISTS (SELECT 1
                           FROM once.outbox e
                          WHERE e.aggregate_id = o.aggregate_id
                            AND e.id < o.id
                            AND e.state NOT IN ('delivered', 'discarded'))
       ORDER BY o.next_attempt_at, o.id
       LIMIT 1
      """
          .formatted(SqlTimes.NOW);

  /**
   * The database's clock now, read to measure how far the application's clock is from it (the
   * relay's check of the skew): {@code clock_timestamp()}, the time of the reading itself.
   */
  static final String DATABASE_TIME = "SELECT clock_timestamp()";
}
