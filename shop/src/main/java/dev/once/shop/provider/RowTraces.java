package dev.once.shop.provider;

import dev.once.outbox.OutboxRecord;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.util.function.Supplier;

/**
 * Makes an outbox row's trace context current on the calling thread while a batch handler works on
 * that row. The relay's tracing gives each row of a batch its own delivery span, but makes none of
 * them current (a batch has many): without this, a provider call or a settlement made for a row of
 * a batch would start a trace of its own instead of going on with the row's, as they do for a
 * single row. Without a tracer (or for a row without a context) it runs the work as it is.
 * Thread-safe.
 */
final class RowTraces {
  private final Tracer tracer;

  /**
   * @param tracer the application's tracer, or {@code null} if it has none
   */
  RowTraces(Tracer tracer) {
    this.tracer = tracer;
  }

  /** Runs {@code work} with {@code row}'s trace context current, and returns what it returned. */
  <T> T inContextOf(OutboxRecord row, Supplier<T> work) {
    TraceContext trace = row.trace();
    if (tracer == null || trace == null) {
      return work.get();
    }
    // traceparent "00-<trace id>-<span id>-<flags>"; TraceContext checked its form.
    String[] fields = trace.traceparent().split("-");
    io.micrometer.tracing.TraceContext context =
        tracer
            .traceContextBuilder()
            .traceId(fields[1])
            .spanId(fields[2])
            .sampled((Integer.parseInt(fields[3], 16) & 1) == 1)
            .build();
    try (var scope = tracer.currentTraceContext().newScope(context)) {
      return work.get();
    }
  }
}
