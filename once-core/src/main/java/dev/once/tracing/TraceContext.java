package dev.once.tracing;

import java.util.Optional;

/**
 * A W3C trace context (<a href="https://www.w3.org/TR/trace-context/">Trace Context</a>) as stored
 * with an outbox row and carried to consumers: the {@code traceparent} of the span that appended
 * the row, and its {@code tracestate}.
 *
 * <p>An instance always holds a valid context: the canonical constructor refuses a malformed {@code
 * traceparent} and drops a malformed {@code tracestate}, and {@link #parse} answers empty instead
 * of throwing, so that data read from a row or a record header never fails a delivery. Valid means:
 *
 * <ul>
 *   <li>{@code traceparent}: lower-case hex fields {@code version-traceid-parentid-flags}; version
 *       {@code 00} is exactly 55 characters, {@code "00-<32 hex>-<16 hex>-<2 hex>"}, neither id all
 *       zeros; a higher version (never {@code ff}) may be longer, its first 55 characters follow
 *       the same form and the 56th, if any, is {@code '-'}.
 *   <li>{@code tracestate}: {@code null}, or 1 to {@value #MAX_TRACESTATE_LENGTH} visible ASCII
 *       characters (0x20 to 0x7E); anything else is dropped (becomes {@code null}), the traceparent
 *       kept. Its list members are not checked further: it is passed on as it came.
 * </ul>
 *
 * Immutable and thread-safe.
 *
 * @param traceparent a valid W3C traceparent
 * @param tracestate the vendor state that came with it, or {@code null}
 */
public record TraceContext(String traceparent, String tracestate) {
  /** Length of a version 00 traceparent, and of the part every version shares. */
  static final int TRACEPARENT_LENGTH = 55;

  /** Longest tracestate kept; W3C asks to propagate at least 512 characters. */
  public static final int MAX_TRACESTATE_LENGTH = 512;

  /** Longest traceparent of a future version accepted: more is taken as hostile, not as news. */
  static final int MAX_TRACEPARENT_LENGTH = 512;

  /**
   * @throws IllegalArgumentException if {@code traceparent} is not valid (use {@link #parse} for
   *     data from outside)
   */
  public TraceContext {
    if (!validTraceparent(traceparent)) {
      throw new IllegalArgumentException("not a valid W3C traceparent");
    }
    if (!validTracestate(tracestate)) {
      tracestate = null;
    }
  }

  /**
   * The context of a traceparent and tracestate from outside (a row, a header): empty if the
   * traceparent is missing or malformed; a malformed tracestate is dropped. Never throws.
   */
  public static Optional<TraceContext> parse(String traceparent, String tracestate) {
    if (!validTraceparent(traceparent)) {
      return Optional.empty();
    }
    return Optional.of(new TraceContext(traceparent, tracestate));
  }

  /** The trace id: 32 lower-case hex characters. */
  public String traceId() {
    return traceparent.substring(3, 35);
  }

  /** The id of the span this context names (the parent of a span continued from it). */
  public String parentId() {
    return traceparent.substring(36, 52);
  }

  /** Whether the sampled flag (bit 0 of the trace flags) is set. */
  public boolean sampled() {
    return (Character.digit(traceparent.charAt(54), 16) & 1) == 1;
  }

  static boolean validTraceparent(String value) {
    if (value == null
        || value.length() < TRACEPARENT_LENGTH
        || value.length() > MAX_TRACEPARENT_LENGTH) {
      return false;
    }
    if (!hex(value, 0, 2) || value.startsWith("ff")) {
      return false;
    }
    boolean version00 = value.startsWith("00");
    if (version00 ? value.length() != TRACEPARENT_LENGTH : !futureTail(value)) {
      return false;
    }
    return value.charAt(2) == '-'
        && hex(value, 3, 35)
        && value.charAt(35) == '-'
        && hex(value, 36, 52)
        && value.charAt(52) == '-'
        && hex(value, 53, 55)
        && !zeros(value, 3, 35)
        && !zeros(value, 36, 52);
  }

  /** A version above 00 may append fields after a '-'; only visible ASCII is let through. */
  private static boolean futureTail(String value) {
    if (value.length() == TRACEPARENT_LENGTH) {
      return true;
    }
    if (value.charAt(TRACEPARENT_LENGTH) != '-') {
      return false;
    }
    for (int i = TRACEPARENT_LENGTH + 1; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  static boolean validTracestate(String value) {
    if (value == null || value.isEmpty() || value.length() > MAX_TRACESTATE_LENGTH) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  private static boolean hex(String value, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static boolean zeros(String value, int from, int to) {
    for (int i = from; i < to; i++) {
      if (value.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }
}
