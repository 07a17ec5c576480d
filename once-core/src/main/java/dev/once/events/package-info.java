/**
 * Events between parts of a system, carried as outbox rows of event types and applied through the
 * inbox. {@link dev.once.events.EventTransport} is the relay's side of a transport: the {@link
 * dev.once.outbox.MessageHandler} that takes event rows on, to the consumers of this process
 * ({@link dev.once.events.InProcessEventTransport}) or to a broker (the {@code once-kafka} module's
 * publisher). Consumers are {@link dev.once.inbox.InboxConsumer}s and do not change with the
 * transport.
 *
 * <p>Guarantees: a row is done only once the transport took the event on for good (every consumer
 * applied it, or the broker acknowledged it); a row it fails to take on is retried by the relay's
 * policy. Events leave the outbox at least once and take effect once per consumer through the inbox
 * (G2). In process, each consumer applies the event in a transaction of its own: if one fails, the
 * row is retried as a whole, the consumers that had applied it find their inbox record and skip it,
 * and one consumer's failure neither rolls back nor blocks the others' effects. The last consumer's
 * transaction also completes the row (one commit for both); a row of a published type that no
 * consumer takes is done at once, so it never holds back its aggregate.
 *
 * <p>Depends on {@code dev.once.outbox} and {@code dev.once.inbox}; the starter and {@code
 * once-kafka} use it.
 */
package dev.once.events;
