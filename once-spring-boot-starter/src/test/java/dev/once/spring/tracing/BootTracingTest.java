package dev.once.spring.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.OutboxEntry;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.spring.internal.OnceTracing;
import dev.once.spring.tracing.TracingTestApplication.Orders;
import dev.once.testing.TestDatabase;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * With the tracer Spring Boot's own auto-configuration makes, Once's runs after it and finds its
 * Tracer and Propagator, whatever the order the auto-configurations are listed in (Once's first
 * here); Boot's no-op tracer, there when no bridge is, counts as none.
 */
@Timeout(120)
class BootTracingTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(TracingTestApplication.class)
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres",
              "once.outbox.relay.enabled=false",
              "management.tracing.sampling.probability=1.0");

  private static String traceparent(ApplicationContext context, OutboxEntry entry) {
    return new JdbcTemplate(context.getBean(DataSource.class))
        .queryForObject(
            "SELECT traceparent FROM once.outbox WHERE id = ?", String.class, entry.id());
  }

  /** Once's first, then the data source and transactions, then {@code tracing}. */
  private ApplicationContextRunner with(Class<?>... tracing) {
    List<Class<?>> all = new ArrayList<>(OnceAutoConfigurations.ALL);
    all.add(DataSourceAutoConfiguration.class);
    all.add(DataSourceTransactionManagerAutoConfiguration.class);
    all.add(TransactionAutoConfiguration.class);
    all.addAll(List.of(tracing));
    return runner.withConfiguration(AutoConfigurations.of(all.toArray(Class<?>[]::new)));
  }

  @Test
  void bootsOpenTelemetryTracerIsFoundAndTheAppendStoresItsContext() {
    with(
            OpenTelemetrySdkAutoConfiguration.class,
            MicrometerTracingAutoConfiguration.class,
            OpenTelemetryTracingAutoConfiguration.class,
            NoopTracerAutoConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(OnceTracing.class)).isInstanceOf(MicrometerTracing.class);
              Tracer tracer = context.getBean(Tracer.class);
              Span request = tracer.nextSpan().name("request").start();
              OutboxEntry entry;
              try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
                entry = context.getBean(Orders.class).append(TracingTestApplication.CHARGE, "{}");
              } finally {
                request.end();
              }

              // Sampled; OpenTelemetry 1.62 (Spring Boot 4.1) also sets the random-trace-id flag.
              String traceparent = traceparent(context, entry);
              assertThat(traceparent)
                  .startsWith(
                      "00-" + request.context().traceId() + "-" + request.context().spanId() + "-");
              assertThat(new TraceContext(traceparent, null).sampled()).isTrue();
            });
  }

  @Test
  void bootsNoopTracerIsNone() {
    with(NoopTracerAutoConfiguration.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(Tracer.class);
              // Boot's no-op tracer comes without a Propagator: the other packages get NONE.
              assertThat(context).doesNotHaveBean(OnceTracing.class);
              Tracer tracer = context.getBean(Tracer.class);
              OutboxEntry entry;
              try (Tracer.SpanInScope scope = tracer.withSpan(tracer.nextSpan().start())) {
                entry = context.getBean(Orders.class).append(TracingTestApplication.CHARGE, "{}");
              }
              assertThat(traceparent(context, entry)).isNull();
            });
  }
}
