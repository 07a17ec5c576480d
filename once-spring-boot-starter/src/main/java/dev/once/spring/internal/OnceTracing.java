package dev.once.spring.internal;

import dev.once.inbox.Inbox;
import dev.once.outbox.MessageHandler;
import dev.once.tracing.TraceContext;

/**
 * <strong>Not part of Once's API.</strong> The trace context through the outbox, as the starter's
 * packages use it: captured from the current span when a row is appended, continued by a span
 * around each delivery attempt and each inbox delivery. Implemented on Micrometer Tracing by {@code
 * dev.once.spring.tracing} when the application has a {@code Tracer} and a {@code Propagator} bean;
 * otherwise {@link #NONE}. Implementations are thread-safe.
 */
public interface OnceTracing {
  /** No tracer: captures nothing and wraps nothing, so it costs nothing on the path. */
  OnceTracing NONE =
      new OnceTracing() {
        @Override
        public TraceContext current() {
          return null;
        }

        @Override
        public MessageHandler traced(MessageHandler handler) {
          return handler;
        }

        @Override
        public Inbox traced(Inbox inbox) {
          return inbox;
        }

        @Override
        public String toString() {
          return "OnceTracing.NONE";
        }
      };

  /** The W3C context of the current span, or {@code null} if there is none. */
  TraceContext current();

  /**
   * {@code handler} with each attempt in a span of its own ({@code once.outbox.deliver}), the child
   * of the context stored with the row (a new root without one); the handler receives the row with
   * that span's context.
   */
  MessageHandler traced(MessageHandler handler);

  /**
   * {@code inbox} with each delivery in a span of its own ({@code once.inbox.consume}), the child
   * of the message's context, else of the current span; the consumer's transaction runs inside it.
   */
  Inbox traced(Inbox inbox);
}
