package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.once.tracing.TraceContext;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * A provider call is a CLIENT span, child of the span current on the calling thread (the relay's
 * delivery span in the shop), and the request carries that client span's W3C {@code traceparent} to
 * the provider, a local HTTP server here that records it. Its tags say which operation and which
 * kind of answer, never the key or the amount. Without a tracer, no header is sent.
 */
@Timeout(30)
class ProviderCallTraceTest {
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
  private final io.opentelemetry.api.trace.Tracer otel = tracerProvider.get("test");
  private final Tracer tracer = new OtelTracer(otel, new OtelCurrentTraceContext(), event -> {});
  private final List<String> traceparents = new CopyOnWriteArrayList<>();

  /** How many of the next requests the provider answers 503, before it charges. */
  private final AtomicInteger unavailable = new AtomicInteger();

  private HttpServer provider;

  @BeforeEach
  void provider() throws IOException {
    provider = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    provider.createContext(
        "/v1/charges",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
          traceparents.add(traceparent == null ? "none" : traceparent);
          if (unavailable.getAndDecrement() > 0) {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
            return;
          }
          byte[] body =
              "{\"id\":\"ch_1\",\"status\":\"succeeded\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(201, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    provider.start();
  }

  @AfterEach
  void stop() {
    provider.stop(0);
    tracerProvider.close();
  }

  @Test
  void theCallIsAClientSpanOfTheCurrentSpanAndTheProviderGetsItsTraceparent() {
    Span delivery = tracer.nextSpan().name("once.outbox.deliver").start();
    ProviderAnswer answer = chargeIn(delivery, "pay_1", "12.34");

    assertThat(answer).isEqualTo(new ProviderAnswer.Succeeded("ch_1"));
    SpanData call =
        spans.getFinishedSpanItems().stream()
            .filter(s -> s.getKind() == SpanKind.CLIENT)
            .findFirst()
            .orElseThrow();
    assertThat(call.getName()).isEqualTo("provider charge");
    assertThat(call.getTraceId()).isEqualTo(delivery.context().traceId());
    assertThat(call.getParentSpanId()).isEqualTo(delivery.context().spanId());
    // Sampled; OpenTelemetry 1.62 (Spring Boot 4.1) also sets the random-trace-id flag.
    assertThat(traceparents).hasSize(1);
    assertThat(traceparents.get(0))
        .startsWith("00-" + call.getTraceId() + "-" + call.getSpanId() + "-");
    assertThat(new TraceContext(traceparents.get(0), null).sampled()).isTrue();
    assertThat(call.getAttributes().get(AttributeKey.stringKey("operation"))).isEqualTo("charge");
    assertThat(call.getAttributes().get(AttributeKey.stringKey("outcome"))).isEqualTo("succeeded");
    assertThat(call.getAttributes().asMap().values().toString())
        .doesNotContain("shop-charge-pay_1")
        .doesNotContain("12.34");
  }

  @Test
  void everyAttemptOfARetriedCallCarriesTheCallsTraceparent() {
    unavailable.set(2);
    Span delivery = tracer.nextSpan().name("once.outbox.deliver").start();
    ProviderAnswer answer = chargeIn(delivery, "pay_3", "1.00");

    assertThat(answer).isEqualTo(new ProviderAnswer.Succeeded("ch_1"));
    assertThat(traceparents).hasSize(3).doesNotContain("none");
    assertThat(traceparents)
        .as("one call, one span: the same traceparent on each attempt")
        .containsOnly(traceparents.get(0));
    assertThat(traceparents.get(0)).contains(delivery.context().traceId());
  }

  @Test
  void withoutATracerNoTraceparentIsSent() {
    ProviderAnswer answer =
        client(ObservationRegistry.NOOP).charge("shop-charge-pay_2", "pay_2", "1.00", "EUR");

    assertThat(answer).isEqualTo(new ProviderAnswer.Succeeded("ch_1"));
    assertThat(traceparents).containsExactly("none");
  }

  /**
   * Charges {@code payment} through a traced client with {@code delivery} current, then ends it.
   */
  private ProviderAnswer chargeIn(Span delivery, String payment, String amount) {
    ProviderClient client = client(tracing());
    try (Tracer.SpanInScope scope = tracer.withSpan(delivery)) {
      return client.charge("shop-charge-" + payment, payment, amount, "EUR");
    } finally {
      delivery.end();
    }
  }

  /** Observations traced by the test's tracer, as Boot's tracing auto-configuration sets them. */
  private ObservationRegistry tracing() {
    ObservationRegistry observations = ObservationRegistry.create();
    OtelPropagator propagator =
        new OtelPropagator(
            ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
    observations
        .observationConfig()
        .observationHandler(
            new FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    return observations;
  }

  private ProviderClient client(ObservationRegistry observations) {
    return new ProviderClient(
        ProviderClient.client(
            ProviderClient.http(Duration.ofSeconds(5)),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10)),
        URI.create("http://127.0.0.1:" + provider.getAddress().getPort()),
        JsonMapper.builder().build(),
        observations);
  }
}
