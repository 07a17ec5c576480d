package dev.once.shop.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingConnectionDetails;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.Transport;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Spans leave the shop over OTLP/HTTP when, and only when, {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set: with Boot's own OpenTelemetry
 * auto-configuration, as in the shop, and a collector that is a local HTTP server recording what it
 * receives. Unset, no exporter exists (so nothing can connect); a bad value stops the start with a
 * message that names the variable.
 */
@Timeout(60)
class OtlpExportTest {
  private final ApplicationContextRunner shop =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  OpenTelemetrySdkAutoConfiguration.class,
                  OpenTelemetryTracingAutoConfiguration.class,
                  OtlpTracingAutoConfiguration.class))
          .withUserConfiguration(OtlpExport.class)
          .withPropertyValues(
              "spring.application.name=once-shop", "management.tracing.sampling.probability=1.0");

  private final List<String> received = new CopyOnWriteArrayList<>();
  private HttpServer collector;

  @BeforeEach
  void collector() throws IOException {
    collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    collector.createContext(
        "/",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          received.add(
              exchange.getRequestMethod()
                  + " "
                  + exchange.getRequestURI().getPath()
                  + " "
                  + exchange.getRequestHeaders().getFirst("Content-Type")
                  + " "
                  + new String(body, StandardCharsets.ISO_8859_1));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    collector.start();
  }

  @AfterEach
  void stop() {
    collector.stop(0);
  }

  @Test
  void withoutTheVariableNoExporterExists() {
    shop.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(OtlpTracingConnectionDetails.class);
          assertThat(context).doesNotHaveBean(SpanExporter.class);
          endOneSpan(
              context.getBean(OpenTelemetry.class), context.getBean(SdkTracerProvider.class));
        });
    assertThat(received).isEmpty();
  }

  @Test
  void aBlankVariableIsUnset() {
    shop.withPropertyValues("OTEL_EXPORTER_OTLP_ENDPOINT= ")
        .run(context -> assertThat(context).doesNotHaveBean(SpanExporter.class));
  }

  @Test
  void withTheBaseUrlSpansArePostedToItsTracesPathAsTheShop() {
    shop.withPropertyValues(
            "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:"
                + collector.getAddress().getPort()
                + "/")
        .run(
            context -> {
              assertThat(context).hasSingleBean(SpanExporter.class);
              endOneSpan(
                  context.getBean(OpenTelemetry.class), context.getBean(SdkTracerProvider.class));
            });

    assertThat(received).hasSize(1);
    assertThat(received.get(0))
        .startsWith("POST /v1/traces application/x-protobuf")
        .contains("once-shop")
        .contains("otlp-probe");
  }

  @Test
  void theTracesVariableIsUsedAsItIs() {
    OtlpEndpoint endpoint = new OtlpEndpoint("http://base:4318", "http://traces:4318/custom");
    assertThat(endpoint.getUrl(Transport.HTTP)).isEqualTo("http://traces:4318/custom");
    assertThat(new OtlpEndpoint("http://base:4318//", null).getUrl(Transport.HTTP))
        .isEqualTo("http://base:4318/v1/traces");
    assertThat(new OtlpEndpoint("http://base:4317", null).getUrl(Transport.GRPC))
        .isEqualTo("http://base:4317");
  }

  @Test
  void aBadValueStopsTheStartNamingTheVariable() {
    shop.withPropertyValues("OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT")
                    .hasMessageContaining("'localhost:4318'"));
  }

  private static void endOneSpan(OpenTelemetry otel, SdkTracerProvider provider) {
    otel.getTracer("test").spanBuilder("otlp-probe").startSpan().end();
    assertThat(provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
  }
}
