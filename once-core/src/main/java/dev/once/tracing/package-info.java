/**
 * The W3C trace context that travels with an outbox row: {@link dev.once.tracing.TraceContext}
 * validates a {@code traceparent} and {@code tracestate} read from a row or a record header, and
 * never throws on bad input, so a malformed value only starts a new trace.
 *
 * <p>A leaf: depends on the JDK only. The outbox ({@code dev.once.outbox}) and the inbox ({@code
 * dev.once.inbox}) carry it; the store ({@code dev.once.postgres}) writes it to and reads it from
 * the row; the starter captures it from, and restores it into, the application's tracer. The core
 * itself opens no span: it has no tracer.
 */
package dev.once.tracing;
