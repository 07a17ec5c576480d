package dev.once.spring.tracing;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.internal.OnceTracing;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@link OnceTracing} on Micrometer Tracing. The W3C context is read from and written to a span
 * through the application's {@link Propagator} (a small map stands for the headers), so the
 * propagator must speak W3C ({@code traceparent}); one that does not (B3 only) yields no context to
 * store, and every delivery starts a new trace. Thread-safe.
 */
final class MicrometerTracing implements OnceTracing {
  static final String DELIVER = "once.outbox.deliver";
  static final String CONSUME = "once.inbox.consume";
  static final String MESSAGE_TYPE = "once.message.type";
  static final String MESSAGE_ID = "once.message.id";
  static final String ATTEMPT = "once.outbox.attempt";
  static final String OUTCOME = "once.outbox.outcome";
  static final String CONSUMER = "once.consumer";
  static final String DUPLICATE = "once.inbox.duplicate";

  private static final String TRACEPARENT = "traceparent";
  private static final String TRACESTATE = "tracestate";

  private final Tracer tracer;
  private final Propagator propagator;

  MicrometerTracing(Tracer tracer, Propagator propagator) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.propagator = Objects.requireNonNull(propagator, "propagator");
  }

  @Override
  public TraceContext current() {
    Span span = tracer.currentSpan();
    return span == null ? null : contextOf(span);
  }

  private TraceContext contextOf(Span span) {
    Map<String, String> carrier = new HashMap<>(4);
    propagator.inject(span.context(), carrier, Map::put);
    return TraceContext.parse(carrier.get(TRACEPARENT), carrier.get(TRACESTATE)).orElse(null);
  }

  /**
   * A span builder whose parent is {@code trace} when the propagator can read it; without a trace,
   * {@code orphan} says whether the span starts a new trace or is the current span's child.
   */
  private Span.Builder childOf(TraceContext trace, boolean orphan) {
    if (trace == null) {
      Span.Builder builder = tracer.spanBuilder();
      return orphan ? builder.setNoParent() : builder;
    }
    Map<String, String> carrier = new HashMap<>(4);
    carrier.put(TRACEPARENT, trace.traceparent());
    if (trace.tracestate() != null) {
      carrier.put(TRACESTATE, trace.tracestate());
    }
    return propagator.extract(carrier, Map::get);
  }

  @Override
  public MessageHandler traced(MessageHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return new MessageHandler() {
      @Override
      public Delivery handle(OutboxRecord message) throws Exception {
        return deliver(message, null, handler);
      }

      @Override
      public Delivery handle(OutboxRecord message, Completion completion) throws Exception {
        return deliver(message, completion, handler);
      }
    };
  }

  /**
   * One attempt in its own span, the child of the row's context: the trace of the transaction that
   * appended the row goes on, one payment one trace. A row without one starts a new trace, never
   * the child of whatever the relay's thread might hold.
   */
  private Delivery deliver(OutboxRecord row, Completion completion, MessageHandler handler)
      throws Exception {
    Span span =
        childOf(row.trace(), true)
            .name(DELIVER)
            .kind(Span.Kind.CONSUMER)
            .tag(MESSAGE_TYPE, row.type())
            .tag(MESSAGE_ID, row.messageId().toString())
            .tag(ATTEMPT, Integer.toString(row.attempt()))
            .start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      OutboxRecord traced = row.withTrace(contextOf(span));
      Delivery delivery =
          completion == null ? handler.handle(traced) : handler.handle(traced, completion);
      span.tag(OUTCOME, outcome(delivery));
      return delivery;
    } catch (Exception | Error e) {
      span.tag(OUTCOME, "error");
      span.error(e);
      throw e;
    } finally {
      span.end();
    }
  }

  private static String outcome(Delivery delivery) {
    if (delivery instanceof Delivery.Done) {
      return "done";
    }
    if (delivery instanceof Delivery.Retry) {
      return "retry";
    }
    if (delivery instanceof Delivery.Dead) {
      return "dead";
    }
    return "error";
  }

  @Override
  public Inbox traced(Inbox inbox) {
    Objects.requireNonNull(inbox, "inbox");
    return new Inbox() {
      @Override
      public boolean deliver(InboxConsumer consumer, InboxMessage message) throws Exception {
        return consume(consumer, message, () -> inbox.deliver(consumer, message));
      }

      @Override
      public boolean deliver(InboxConsumer consumer, InboxMessage message, Completion completion)
          throws Exception {
        return consume(consumer, message, () -> inbox.deliver(consumer, message, completion));
      }

      @Override
      public int purge(Duration retention, int limit) {
        return inbox.purge(retention, limit);
      }
    };
  }

  /** A delivery of the inbox. */
  @FunctionalInterface
  private interface InboxDelivery {
    boolean deliver() throws Exception;
  }

  /**
   * One inbox delivery in its own span, the child of the message's context (the relay's delivery
   * span, or a Kafka record's headers), else of the current span; the consumer's transaction runs
   * in it, so what the consumer appends carries it on.
   */
  private boolean consume(InboxConsumer consumer, InboxMessage message, InboxDelivery delivery)
      throws Exception {
    Span span =
        childOf(message.trace(), false)
            .name(CONSUME)
            .kind(Span.Kind.CONSUMER)
            .tag(CONSUMER, consumer.name())
            .tag(MESSAGE_TYPE, message.type())
            .tag(MESSAGE_ID, message.messageId().toString())
            .start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      boolean applied = delivery.deliver();
      span.tag(DUPLICATE, Boolean.toString(!applied));
      return applied;
    } catch (Exception | Error e) {
      span.error(e);
      throw e;
    } finally {
      span.end();
    }
  }
}
