package dev.once.spring.tracing;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.internal.OnceTracing;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

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
  static final String BATCH = "once.inbox.batch";

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
    if (handler instanceof BatchMessageHandler batch) {
      return new BatchMessageHandler() {
        @Override
        public Delivery handle(OutboxRecord message) throws Exception {
          return deliver(message, null, batch);
        }

        @Override
        public Delivery handle(OutboxRecord message, Completion completion) throws Exception {
          return deliver(message, completion, batch);
        }

        @Override
        public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion)
            throws Exception {
          return deliverAll(rows, completion, batch);
        }
      };
    }
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
    Span span = deliverySpan(row);
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

  /**
   * A batch attempt: one delivery span per row, each the child of its row's context as a single
   * row's, none of them current while the batch runs; the rows go on with their span's context, so
   * an inbox consumer's span (and what it appends) is the child of its row's.
   */
  private List<Delivery> deliverAll(
      List<OutboxRecord> rows, BatchCompletion completion, BatchMessageHandler handler)
      throws Exception {
    List<Span> spans = new ArrayList<>(rows.size());
    List<OutboxRecord> traced = new ArrayList<>(rows.size());
    for (OutboxRecord row : rows) {
      Span span = deliverySpan(row);
      spans.add(span);
      traced.add(row.withTrace(contextOf(span)));
    }
    try {
      List<Delivery> deliveries = handler.handleAll(traced, completion);
      for (int i = 0; i < spans.size(); i++) {
        spans
            .get(i)
            .tag(
                OUTCOME,
                deliveries != null && i < deliveries.size() ? outcome(deliveries.get(i)) : "error");
      }
      return deliveries;
    } catch (Exception | Error e) {
      for (Span span : spans) {
        span.tag(OUTCOME, "error");
        span.error(e);
      }
      throw e;
    } finally {
      spans.forEach(Span::end);
    }
  }

  /**
   * The started span of one delivery attempt: the child of the row's context, or the root of a new
   * trace for a row without one (never the child of whatever the relay's thread might hold).
   */
  private Span deliverySpan(OutboxRecord row) {
    return childOf(row.trace(), true)
        .name(DELIVER)
        .kind(Span.Kind.CONSUMER)
        .tag(MESSAGE_TYPE, row.type())
        .tag(MESSAGE_ID, row.messageId().toString())
        .tag(ATTEMPT, Integer.toString(row.attempt()))
        .start();
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
      public Set<UUID> deliverAll(
          BatchInboxConsumer consumer, List<InboxMessage> messages, Completion completion)
          throws Exception {
        return inbox.deliverAll(new TracedConsumer(consumer), messages, completion);
      }

      @Override
      public int purge(Duration retention, int limit) {
        return inbox.purge(retention, limit);
      }
    };
  }

  /**
   * A batch consumer whose messages each run in a consume span of their own, the child of the
   * message's context, so what the consumer appends for a message carries that message's trace. A
   * consumer that applies a batch with its own {@link BatchInboxConsumer#consumeAll} gets one span
   * for the batch, the child of its first message's context, tagged with the batch's size.
   */
  private final class TracedConsumer implements BatchInboxConsumer {
    private final BatchInboxConsumer consumer;

    TracedConsumer(BatchInboxConsumer consumer) {
      this.consumer = consumer;
    }

    @Override
    public String name() {
      return consumer.name();
    }

    @Override
    public Set<String> types() {
      return consumer.types();
    }

    @Override
    public void consume(Connection tx, InboxMessage message) throws Exception {
      MicrometerTracing.this.consume(
          consumer,
          message,
          () -> {
            consumer.consume(tx, message);
            return true;
          });
    }

    @Override
    public void consumeAll(Connection tx, List<InboxMessage> messages) throws Exception {
      if (!OWNS_BATCH.get(consumer.getClass())) {
        for (InboxMessage message : messages) {
          consume(tx, message);
        }
        return;
      }
      Span span =
          consumeSpan(consumer, messages.get(0))
              .tag(BATCH, Integer.toString(messages.size()))
              .start();
      try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
        consumer.consumeAll(tx, messages);
      } catch (Exception | Error e) {
        span.error(e);
        throw e;
      } finally {
        span.end();
      }
    }
  }

  /**
   * Whether a consumer class applies a batch its own way (overrides {@code consumeAll}); looked up
   * once per class, not on every batch.
   */
  private static final ClassValue<Boolean> OWNS_BATCH =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          try {
            return type.getMethod("consumeAll", Connection.class, List.class).getDeclaringClass()
                != BatchInboxConsumer.class;
          } catch (NoSuchMethodException e) {
            return false;
          }
        }
      };

  /**
   * The span of {@code consumer} applying {@code message}: the child of the message's context (the
   * relay's delivery span, or a Kafka record's headers), else of the current span.
   */
  private Span.Builder consumeSpan(InboxConsumer consumer, InboxMessage message) {
    return childOf(message.trace(), false)
        .name(CONSUME)
        .kind(Span.Kind.CONSUMER)
        .tag(CONSUMER, consumer.name())
        .tag(MESSAGE_TYPE, message.type())
        .tag(MESSAGE_ID, message.messageId().toString());
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
    Span span = consumeSpan(consumer, message).start();
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
