package dev.once.spring.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A tracer as Spring Boot's OpenTelemetry bridge makes one (Micrometer Tracing over the OTel SDK,
 * W3C propagation), built by hand so that every span is sampled and exported the moment it ends,
 * into one {@link InMemorySpanExporter} for the whole test JVM: two application contexts on the
 * same database (a restart) export to the same place. Tests tell their spans apart by trace id or
 * message id, never by clearing it.
 */
@Configuration(proxyBeanMethods = false)
public class InMemoryTracing {
  public static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

  private static final io.opentelemetry.api.trace.Tracer OTEL =
      SdkTracerProvider.builder()
          .setSampler(Sampler.alwaysOn())
          .addSpanProcessor(SimpleSpanProcessor.create(SPANS))
          .build()
          .get("once-test");

  @Bean
  Tracer tracer() {
    return new OtelTracer(OTEL, new OtelCurrentTraceContext(), event -> {});
  }

  @Bean
  Propagator propagator() {
    return new OtelPropagator(
        ContextPropagators.create(W3CTraceContextPropagator.getInstance()), OTEL);
  }

  /** The ended spans of one trace. */
  public static List<SpanData> trace(String traceId) {
    return SPANS.getFinishedSpanItems().stream()
        .filter(span -> span.getTraceId().equals(traceId))
        .toList();
  }

  /** The ended spans named {@code name} whose {@code once.message.id} is {@code messageId}. */
  public static List<SpanData> spans(String name, Object messageId) {
    return SPANS.getFinishedSpanItems().stream()
        .filter(span -> span.getName().equals(name))
        .filter(span -> messageId.toString().equals(tag(span, MicrometerTracing.MESSAGE_ID)))
        .toList();
  }

  public static String tag(SpanData span, String key) {
    return span.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey(key));
  }
}
