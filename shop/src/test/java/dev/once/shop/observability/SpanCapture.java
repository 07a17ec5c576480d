package dev.once.shop.observability;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Every span the shop ends, in memory: a {@link SimpleSpanProcessor} (exports each span when it
 * ends, no batching) added to Boot's tracer provider. The spans are kept in one static exporter for
 * the whole JVM, so a test can start and close shop contexts and still read what each one recorded;
 * closing a context does not stop it. Sampling is the shop's own, 1.0.
 */
@TestConfiguration(proxyBeanMethods = false)
public class SpanCapture {
  private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

  /** The spans ended so far, in the order they ended. */
  public static List<SpanData> spans() {
    return SPANS.getFinishedSpanItems();
  }

  /** The spans of trace {@code traceId} ended so far. */
  public static List<SpanData> trace(String traceId) {
    return spans().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
  }

  @Bean
  SpanProcessor inMemorySpans() {
    return SimpleSpanProcessor.create(
        new SpanExporter() {
          @Override
          public CompletableResultCode export(Collection<SpanData> spans) {
            return SPANS.export(spans);
          }

          @Override
          public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
          }

          @Override
          public CompletableResultCode shutdown() {
            // The exporter outlives the context: the next context of the test records into it.
            return CompletableResultCode.ofSuccess();
          }
        });
  }
}
