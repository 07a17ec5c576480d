/**
 * The trace context through the outbox on Micrometer Tracing, active when the application has a
 * {@code Tracer} and a {@code Propagator} bean (Spring Boot makes both with a tracing bridge, e.g.
 * {@code micrometer-tracing-bridge-otel}):
 *
 * <ul>
 *   <li>an append stores the W3C context of the current span with its row (unless the message
 *       carries one of its own);
 *   <li>each delivery attempt of the relay runs in a span {@code once.outbox.deliver} (kind
 *       CONSUMER), the child of the stored context, so the trace of the request goes on through the
 *       outbox; a row without a valid context starts a new trace. Tags {@code once.message.type},
 *       {@code once.message.id}, {@code once.outbox.attempt}, {@code once.outbox.outcome} ({@code
 *       done}, {@code retry}, {@code dead} or {@code error}); the handler sees the row with that
 *       span's context, so the in-process transport's messages and a Kafka record's headers carry
 *       it;
 *   <li>each inbox delivery runs in a span {@code once.inbox.consume} (kind CONSUMER), the child of
 *       the message's context, else of the current span; tags {@code once.consumer}, {@code
 *       once.message.type}, {@code once.message.id}, {@code once.inbox.duplicate}. The consumer's
 *       transaction runs in it, so what it publishes carries the trace on.
 * </ul>
 *
 * Every tag value is a string. Without a tracer (or with Boot's no-op one) nothing of this runs:
 * the other packages get {@code OnceTracing.NONE}, nothing is stored and no span is made.
 *
 * <p>Depends on Micrometer Tracing, Spring, {@code dev.once.spring.internal} and once-core.
 */
package dev.once.spring.tracing;
