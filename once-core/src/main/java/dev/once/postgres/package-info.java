/**
 * The PostgreSQL implementations of the core's stores and the DDL of their tables. {@link
 * dev.once.postgres.PostgresStores} makes the idempotency-key store ({@code once.idempotency_key}),
 * the outbox store ({@code once.outbox}: the outbox, its relay and its admin) and the inbox store
 * ({@code once.inbox}); {@link dev.once.postgres.OnceSchema} lists the versioned scripts that
 * create them in schema {@code once}, for Flyway or for a team's own migrations; {@link
 * dev.once.postgres.WalFlush} makes commits that did not wait for the WAL flush durable before
 * something outside the database depends on them.
 *
 * <p>What the stores promise: the idempotency store runs every statement on the caller's connection
 * and ends no transaction but through {@code completeAndCommit} (answer and commit in one round
 * trip); outbox appends, completions joined to a handler's transaction and inbox claims run in the
 * caller's transaction, every other outbox and inbox operation in a short transaction of its own on
 * the {@code DataSource}. Every time that several processes compare (a key's expiry, a row's due
 * time, a lease, a purge's cut-off) is the database server's clock ({@code statement_timestamp()}):
 * callers pass durations only, so an instance whose clock is wrong can neither take a live key for
 * an expired one nor take over rows another relay still holds. A key claim writes nothing (an
 * advisory lock marks the key in flight); an append takes its aggregate's advisory lock before it
 * draws the row's id, so ids per aggregate are in commit order. An outbox row stores the W3C trace
 * context of its message in two nullable columns ({@code traceparent}, {@code tracestate}); the
 * claim hands it back, and a stored value that is not a valid context is read as none.
 *
 * <p>Depends on {@code dev.once.idempotency}, {@code dev.once.outbox} and {@code dev.once.inbox}
 * (the interfaces it implements), {@code dev.once.tracing} and JDBC; the starter, {@code
 * once-kafka} and once-verify use it.
 */
package dev.once.postgres;
