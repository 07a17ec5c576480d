/**
 * The inbox in Spring, configured by {@link dev.once.spring.inbox.OnceInboxAutoConfiguration}.
 * Public: {@link dev.once.spring.inbox.InboxDuplicates}, the sink of skipped redeliveries an
 * application may replace; the rest is package-private. {@link
 * dev.once.spring.inbox.SpringTransactions} runs each delivery in a new transaction of the
 * application's transaction manager, {@link dev.once.spring.inbox.ObservedInbox} reports every
 * redelivery it skipped to an {@link dev.once.spring.inbox.InboxDuplicates} (metrics), and {@link
 * dev.once.spring.inbox.InboxPurger} deletes old records in the background.
 *
 * <p>Guarantees: each delivery runs in a new Spring transaction ({@code REQUIRES_NEW}), so a
 * caller's transaction never swallows an inbox record, and a consumer that writes through {@code
 * JdbcClient}, {@code JdbcTemplate} or any {@code DataSourceUtils}-aware code writes in the same
 * transaction as its inbox record: effect and record commit together or not at all. The purge
 * deletes records older than the retention by the database's clock, in batches that are each a
 * short transaction of their own and keep pace with the writes; several instances may purge at
 * once.
 *
 * <p>Depends on {@code dev.once.inbox}, {@code dev.once.events}, {@code dev.once.spring} (the
 * properties and the schema migration), {@code dev.once.spring.events} (the published types) and
 * {@code dev.once.spring.internal}; {@code dev.once.spring.metrics} uses it.
 */
package dev.once.spring.inbox;
