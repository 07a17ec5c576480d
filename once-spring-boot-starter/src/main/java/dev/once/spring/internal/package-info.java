/**
 * <strong>Not part of Once's API</strong>: what more than one package of the starter (and {@code
 * once-kafka}) shares and Java cannot share without making it public. Any type here may change or
 * go in any release; applications must not use them.
 *
 * <p>{@link dev.once.spring.internal.PeriodicTask} runs one background job (a purge, a gauge
 * refresh, the outbox's load check) on a daemon thread of its own, and a purge in batches that keep
 * pace with the writes; {@link dev.once.spring.internal.SameDataSource} checks that the
 * application's transaction manager manages the DataSource Once writes to; {@link
 * dev.once.spring.internal.EventsPublished} matches when {@code once.outbox.events} names a type;
 * {@link dev.once.spring.internal.OnceTracing} is the trace context through the outbox, which
 * {@code dev.once.spring.tracing} implements on Micrometer Tracing. Depends on the JDK, Spring and
 * once-core alone, so that every package of the starter can use it without using each other.
 */
package dev.once.spring.internal;
