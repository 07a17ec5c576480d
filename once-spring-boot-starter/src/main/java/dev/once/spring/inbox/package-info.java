/**
 * The inbox in Spring: {@link dev.once.spring.inbox.SpringTransactions} runs each delivery in a new
 * transaction of the application's transaction manager, {@link dev.once.spring.inbox.ObservedInbox}
 * reports every redelivery it skipped to an {@link dev.once.spring.inbox.InboxDuplicates}
 * (metrics), and {@link dev.once.spring.inbox.InboxPurger} deletes old records in the background.
 *
 * <p>Guarantees: each delivery runs in a new Spring transaction ({@code REQUIRES_NEW}), so a
 * caller's transaction never swallows an inbox record, and a consumer that writes through {@code
 * JdbcClient}, {@code JdbcTemplate} or any {@code DataSourceUtils}-aware code writes in the same
 * transaction as its inbox record: effect and record commit together or not at all. The purge
 * deletes records older than the retention by the database's clock, in batches that are each a
 * short transaction of their own and keep pace with the writes; several instances may purge at
 * once.
 *
 * <p>Depends on {@code dev.once.inbox}, {@code dev.once.outbox} and {@code
 * dev.once.spring.scheduling}; the auto-configuration and {@code dev.once.spring.metrics} use it.
 */
package dev.once.spring.inbox;
