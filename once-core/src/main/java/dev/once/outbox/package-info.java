/**
 * The transactional outbox and its relay. {@link dev.once.outbox.Outbox#append} writes an {@link
 * dev.once.outbox.OutboxMessage} (type, aggregate id, JSON payload) in the caller's transaction;
 * the {@link dev.once.outbox.OutboxRelay} hands each committed row to the {@link
 * dev.once.outbox.MessageHandler} of its type, which answers with a {@link
 * dev.once.outbox.Delivery}, retried by its {@link dev.once.outbox.RetryPolicy}; {@link
 * dev.once.outbox.OutboxAdmin} lists dead rows, requeues one and reads the backlog.
 *
 * <p>Guarantees (G3):
 *
 * <ul>
 *   <li>A row exists if and only if the transaction that appended it commits: nothing is sent
 *       during that transaction, and nothing ever for one that rolled back.
 *   <li>Every committed row is delivered at least once after commit (again after a crash, a lost
 *       lease, a time-out or a retry), to a handler that runs with no transaction open and must be
 *       idempotent on {@link dev.once.outbox.OutboxRecord#messageId()}, the same on every attempt.
 *   <li>Rows of one aggregate are handled one at a time, in commit order, whatever their type; rows
 *       of different aggregates run in parallel. A failed row blocks the later rows of its
 *       aggregate until it is delivered.
 *   <li>A failure is retried with exponential backoff and jitter; a row turns dead after its last
 *       attempt, or at once on {@link dev.once.outbox.Delivery#dead(String)}, and waits for an
 *       operator to requeue it with a fresh attempt budget.
 *   <li>Rows are claimed under a lease that a heartbeat renews, and an outcome is a compare-and-set
 *       on the row's id and claim, so several relays may share one table and one that lost its
 *       claim cannot overwrite the new holder's ({@link dev.once.outbox.ClaimLostException}). A
 *       handler may complete its row in its own transaction ({@link dev.once.outbox.Completion}).
 *   <li>Due times, leases and purge cut-offs are the database's clock, one for every relay.
 * </ul>
 *
 * <p>A message and its row may carry a W3C trace context ({@code dev.once.tracing}): the append
 * stores it with the row, the claim hands it back on the {@link dev.once.outbox.OutboxRecord}; the
 * relay itself opens no span (the starter wraps handlers when the application has a tracer).
 *
 * <p>Depends on the JDK, JDBC, SLF4J, {@code dev.once.failures}, {@code dev.once.log} and {@code
 * dev.once.tracing}; {@code dev.once.postgres} implements its {@link dev.once.outbox.OutboxStore},
 * and the inbox, the event transports, the starter and the applications use it. Details:
 * docs/outbox.md.
 */
package dev.once.outbox;
