package dev.once.kafka;

/**
 * The record headers Once writes on every event it publishes, and reads on every record it
 * consumes. Their values are UTF-8 text.
 */
public final class OnceHeaders {
  /**
   * The outbox row's message id, a UUID: the same on every publication of one event (a relay retry,
   * a producer retry), so the inbox dedups on it.
   */
  public static final String MESSAGE_ID = "once-message-id";

  /** The event type, e.g. {@code order.placed}; several types may share one topic. */
  public static final String TYPE = "once-type";

  /**
   * The W3C {@code traceparent} of the relay's delivery span (the row's stored trace context
   * continued), when the application has a tracer; absent otherwise. A consumer continues the trace
   * from it; a malformed value is ignored (a new trace), never a reason to refuse the record.
   */
  public static final String TRACEPARENT = "traceparent";

  /** The W3C {@code tracestate} that goes with {@link #TRACEPARENT}, when there is one. */
  public static final String TRACESTATE = "tracestate";

  /** On a dead-lettered record: why it was dead-lettered, in words, without its payload. */
  public static final String DEAD_LETTER_REASON = "once-dead-letter-reason";

  /** On a dead-lettered record: the inbox consumer that gave up on it. */
  public static final String DEAD_LETTER_CONSUMER = "once-dead-letter-consumer";

  private OnceHeaders() {}
}
