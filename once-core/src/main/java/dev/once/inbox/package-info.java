/**
 * The inbox: exactly-once consumption of messages that arrive at least once (G2). {@link
 * dev.once.inbox.Inbox#deliver(dev.once.inbox.InboxConsumer, dev.once.inbox.InboxMessage)} opens a
 * transaction ({@link dev.once.inbox.Transactions}), records {@code (messageId, consumer name)}
 * with one insert that does nothing on conflict, and calls the {@link dev.once.inbox.InboxConsumer}
 * with that same transaction only if the record is new. An {@link dev.once.inbox.InboxMessage} is
 * the same whatever transport brought it; {@link dev.once.inbox.InboxStore} is the storage
 * underneath.
 *
 * <p>Guarantees: the record and the consumer's effect commit together or not at all; a consumer
 * that throws rolls both back, so the message is delivered again; a consumer never sees a message
 * outside the inbox, so it cannot forget the dedup. Given the outbox row's {@link
 * dev.once.outbox.Completion}, the row's completion joins the same transaction, also for a
 * duplicate. Records are stamped, and purged after their retention, by the database's clock; the
 * retention must exceed the longest redelivery of a message (the retry span, plus the time an
 * operator may take to requeue a dead row), since a message delivered after its record was purged
 * is taken as new. A consumer's name is half the dedup key: renaming it makes every message new.
 *
 * <p>Depends on {@code dev.once.outbox} (the row a message comes from, its completion), {@code
 * dev.once.tracing} (the trace context a message carries), the JDK, JDBC and SLF4J; {@code
 * dev.once.events}, {@code dev.once.postgres}, the starter and {@code once-kafka} use it.
 */
package dev.once.inbox;
