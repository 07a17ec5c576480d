/**
 * The outbox in Spring. {@link dev.once.spring.outbox.TransactionalOutbox} appends messages in the
 * current Spring transaction ({@code append} for commands, {@code publish} for events, which writes
 * only if something consumes the type) and lets a handler complete its row in its own transaction;
 * {@link dev.once.spring.outbox.OutboxHandler} beans are the relay's handlers; {@link
 * dev.once.spring.outbox.OutboxRelayLifecycle} starts and stops the relay with the context; {@link
 * dev.once.spring.outbox.RelayHealth} is its health; {@link
 * dev.once.spring.outbox.OutboxLoadShedding} refuses new work while the relay is too far behind.
 *
 * <p>Guarantees: a message exists if and only if the business writes around it commit (inside an
 * idempotent request, the request's own transaction); an append outside a transaction is refused.
 * After a commit the relay is woken once per transaction ({@link
 * dev.once.spring.outbox.RelayWakeUp}), a rollback wakes nothing. Handlers are called after commit,
 * never for a rolled-back transaction, at least once per row, with no transaction open. With load
 * shedding on, an append while the oldest claimable row has waited longer than the limit throws
 * {@link dev.once.outbox.OutboxOverloadedException} before writing anything, read from memory with
 * no database round trip; the relay's own work ({@link dev.once.spring.outbox.RelayWork}) is never
 * shed. The relay stops, waiting for rows in flight up to its shutdown time-out, before the
 * DataSource closes.
 *
 * <p>Depends on {@code dev.once.outbox}, {@code dev.once.log} and {@code dev.once.spring.internal};
 * the auto-configuration and applications use it. Details: docs/outbox.md.
 */
package dev.once.spring.outbox;
