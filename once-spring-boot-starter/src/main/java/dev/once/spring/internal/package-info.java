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
 * {@code dev.once.spring.tracing} implements on Micrometer Tracing; {@link
 * dev.once.spring.internal.ThreadMark#ACCEPTED_WORK} marks once-kafka's inbox listeners so that the
 * outbox's load shedding never refuses them. The constraints of the configuration records ({@link
 * dev.once.spring.internal.IntRange}, {@link dev.once.spring.internal.DurationRange}, {@link
 * dev.once.spring.internal.DecimalRange}, {@link dev.once.spring.internal.DataSizeRange}, {@link
 * dev.once.spring.internal.CrossChecked}) and how their messages read ({@link
 * dev.once.spring.internal.Bounds}) are shared with once-kafka's {@code once.kafka.*}, so that both
 * report a bad value the same way. Depends on the JDK, Spring, Jakarta Validation and once-core
 * alone, so that every package of the starter can use it without using each other.
 */
package dev.once.spring.internal;
