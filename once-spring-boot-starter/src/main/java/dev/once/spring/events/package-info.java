/**
 * Typed events on the outbox and the inbox: {@link dev.once.spring.events.OnceEvent} records with a
 * stable name and a schema version, published in the current transaction with {@link
 * dev.once.spring.events.OnceEvents}, and consumed by {@link dev.once.spring.events.OnceListener}
 * methods, which the starter registers as {@link dev.once.inbox.InboxConsumer} beans so that every
 * transport delivers to them. {@link dev.once.spring.events.EventCodec} writes and reads payloads
 * (the record's JSON; a version above 1 in the reserved member {@code "@version"}), {@link
 * dev.once.spring.events.EventUpcaster} beans turn older versions into newer ones, and {@link
 * dev.once.spring.events.PublishedEventTypes} are the types found in the application's packages.
 *
 * <p>Guarantees: an event is written if and only if the publishing transaction commits (and
 * something consumes its type); a listener method applies each event once per consumer, in the
 * inbox's transaction with its inbox record; an event it cannot read (not a JSON object, a newer
 * version, a missing upcaster, a payload that does not bind to the record) throws before the method
 * runs, so nothing is applied, the event is not consumed, and the transport retries it, then
 * dead-letters it. Two listener methods of one consumer for one event type fail the start.
 *
 * <p>Depends on {@code dev.once.inbox}, {@code dev.once.outbox}, {@code dev.once.spring.outbox} and
 * Jackson 3; the auto-configuration and {@code once-kafka} use it. Details: docs/outbox.md.
 */
package dev.once.spring.events;
