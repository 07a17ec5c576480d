package dev.once.spring.tracing;

import static dev.once.spring.tracing.InMemoryTracing.spans;
import static dev.once.spring.tracing.InMemoryTracing.tag;
import static dev.once.spring.tracing.TracingTestApplication.CHARGE;
import static dev.once.spring.tracing.TracingTestApplication.PLACED;
import static dev.once.spring.tracing.TracingTestApplication.RECEIVED;
import static dev.once.spring.tracing.TracingTestApplication.RUN;
import static dev.once.spring.tracing.TracingTestApplication.SHIPPED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.spring.internal.OnceTracing;
import dev.once.spring.tracing.TracingTestApplication.Orders;
import dev.once.testing.TestDatabase;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One trace through the outbox, with Micrometer Tracing over OpenTelemetry and every span kept in
 * memory: the append stores the request's context, each delivery attempt continues it, the inbox
 * consumer continues the delivery and what it publishes carries the trace on; a bad stored context
 * starts a new trace, and a restart between the commit and the delivery loses nothing.
 */
@Timeout(120)
class OutboxTracingTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final String INVALID_PARENT = "0000000000000000";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class,
                  TransactionAutoConfiguration.class))
          .withUserConfiguration(TracingTestApplication.class)
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres",
              "once.outbox.relay.poll-interval=20ms",
              "once.outbox.relay.retry.initial-delay=1ms",
              "once.outbox.relay.retry.jitter=0");

  private final ApplicationContextRunner traced =
      runner.withUserConfiguration(InMemoryTracing.class);

  /** Runs {@code work} in a new root span, as a request would; returns its result and span. */
  private static <T> Traced<T> inSpan(ApplicationContext context, Supplier<T> work) {
    Tracer tracer = context.getBean(Tracer.class);
    Span request = tracer.nextSpan().name("request").start();
    try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
      return new Traced<>(work.get(), request.context().traceId(), request.context().spanId());
    } finally {
      request.end();
    }
  }

  private record Traced<T>(T value, String traceId, String spanId) {}

  private static SpanData awaitOne(String name, UUID messageId) {
    await().atMost(PATIENCE).until(() -> spans(name, messageId).size() == 1);
    return spans(name, messageId).get(0);
  }

  private static String column(ApplicationContext context, long id, String column) {
    return new JdbcTemplate(context.getBean(DataSource.class))
        .queryForObject("SELECT " + column + " FROM once.outbox WHERE id = ?", String.class, id);
  }

  @Test
  void theAppendStoresTheRequestsContextAndTheDeliveryContinuesIt() {
    traced.run(
        context -> {
          Traced<OutboxEntry> request =
              inSpan(context, () -> context.getBean(Orders.class).append(CHARGE, "{}"));
          OutboxEntry entry = request.value();

          // The request's span, sampled. The other trace flags are the propagator's: OpenTelemetry
          // 1.62 (Spring Boot 4.1) also sets the random-trace-id flag of W3C Trace Context level 2.
          String traceparent = column(context, entry.id(), "traceparent");
          assertThat(traceparent)
              .startsWith("00-" + request.traceId() + "-" + request.spanId() + "-");
          assertThat(new TraceContext(traceparent, null).sampled()).isTrue();
          SpanData delivery = awaitOne(MicrometerTracing.DELIVER, entry.messageId());
          assertThat(delivery.getTraceId()).isEqualTo(request.traceId());
          assertThat(delivery.getParentSpanId()).isEqualTo(request.spanId());
          assertThat(delivery.getKind()).isEqualTo(SpanKind.CONSUMER);
          assertThat(tag(delivery, MicrometerTracing.MESSAGE_TYPE)).isEqualTo(CHARGE);
          assertThat(tag(delivery, MicrometerTracing.ATTEMPT)).isEqualTo("1");
          assertThat(tag(delivery, MicrometerTracing.OUTCOME)).isEqualTo("done");
          TraceContext handed = RECEIVED.get(entry.messageId()).get(0);
          assertThat(handed.traceId()).isEqualTo(request.traceId());
          assertThat(handed.parentId())
              .as("the handler sees the delivery span, which a transport carries on")
              .isEqualTo(delivery.getSpanId());
        });
  }

  @Test
  void aMessageThatCarriesAContextOfItsOwnKeepsIt() {
    TraceContext own =
        new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "k=v");
    traced.run(
        context -> {
          Traced<OutboxEntry> request =
              inSpan(
                  context,
                  () ->
                      context
                          .getBean(Orders.class)
                          .append(new OutboxMessage(CHARGE, "agg-own-" + RUN, "{}", own)));

          long id = request.value().id();
          assertThat(column(context, id, "traceparent")).isEqualTo(own.traceparent());
          assertThat(column(context, id, "tracestate")).isEqualTo("k=v");
          SpanData delivery = awaitOne(MicrometerTracing.DELIVER, request.value().messageId());
          assertThat(delivery.getTraceId()).isEqualTo(own.traceId());
          assertThat(delivery.getParentSpanId()).isEqualTo(own.parentId());
          assertThat(RECEIVED.get(request.value().messageId()).get(0).tracestate())
              .as("the tracestate goes on with the delivery span's context")
              .isEqualTo("k=v");
        });
  }

  @Test
  void eachAttemptOfARetriedRowIsASpanOfItsOwnInTheSameTrace() {
    traced.run(
        context -> {
          Traced<OutboxEntry> request =
              inSpan(
                  context,
                  () -> context.getBean(Orders.class).append(CHARGE, "{\"retry-once\":1}"));
          UUID id = request.value().messageId();

          await().atMost(PATIENCE).until(() -> spans(MicrometerTracing.DELIVER, id).size() == 2);
          List<SpanData> attempts = spans(MicrometerTracing.DELIVER, id);
          assertThat(attempts).extracting(SpanData::getTraceId).containsOnly(request.traceId());
          assertThat(attempts)
              .extracting(SpanData::getParentSpanId)
              .as("both continue the stored context")
              .containsOnly(request.spanId());
          assertThat(attempts).extracting(SpanData::getSpanId).doesNotHaveDuplicates();
          assertThat(attempts)
              .extracting(span -> tag(span, MicrometerTracing.ATTEMPT))
              .containsExactlyInAnyOrder("1", "2");
          assertThat(attempts)
              .extracting(span -> tag(span, MicrometerTracing.OUTCOME))
              .containsExactlyInAnyOrder("retry", "done");
        });
  }

  @Test
  void theConsumerContinuesTheDeliveryAndWhatItPublishesCarriesTheTraceOn() {
    traced.run(
        context -> {
          Traced<OutboxEntry> request =
              inSpan(context, () -> context.getBean(Orders.class).append(PLACED, "{}"));
          UUID placed = request.value().messageId();

          SpanData placedDelivery = awaitOne(MicrometerTracing.DELIVER, placed);
          SpanData ship = awaitOne(MicrometerTracing.CONSUME, placed);
          assertThat(ship.getTraceId()).isEqualTo(request.traceId());
          assertThat(ship.getParentSpanId()).isEqualTo(placedDelivery.getSpanId());
          assertThat(ship.getKind()).isEqualTo(SpanKind.CONSUMER);
          assertThat(tag(ship, MicrometerTracing.CONSUMER)).isEqualTo("ship-" + RUN);
          assertThat(tag(ship, MicrometerTracing.DUPLICATE)).isEqualTo("false");

          // The shipped event was appended in the consumer's transaction, inside its span.
          await()
              .atMost(PATIENCE)
              .until(
                  () ->
                      InMemoryTracing.trace(request.traceId()).stream()
                          .anyMatch(
                              span ->
                                  span.getName().equals(MicrometerTracing.CONSUME)
                                      && tag(span, MicrometerTracing.MESSAGE_TYPE)
                                          .equals(SHIPPED)));
          SpanData notify =
              InMemoryTracing.trace(request.traceId()).stream()
                  .filter(span -> SHIPPED.equals(tag(span, MicrometerTracing.MESSAGE_TYPE)))
                  .filter(span -> span.getName().equals(MicrometerTracing.CONSUME))
                  .findFirst()
                  .orElseThrow();
          UUID shipped = UUID.fromString(tag(notify, MicrometerTracing.MESSAGE_ID));
          SpanData shippedDelivery = awaitOne(MicrometerTracing.DELIVER, shipped);
          assertThat(shippedDelivery.getTraceId()).isEqualTo(request.traceId());
          assertThat(shippedDelivery.getParentSpanId())
              .as("the shipped row stored the consumer span's context")
              .isEqualTo(ship.getSpanId());
          assertThat(notify.getParentSpanId()).isEqualTo(shippedDelivery.getSpanId());
          assertThat(tag(notify, MicrometerTracing.CONSUMER)).isEqualTo("notify-" + RUN);
        });
  }

  @Test
  void aMalformedStoredContextIsDeliveredInANewTraceNeverAnError() {
    String hostile = "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01";
    traced.run(
        context -> {
          OutboxEntry entry =
              context.getBean(Orders.class).appendWithStoredTrace(CHARGE, hostile, "k=v\r\nx: 1");

          SpanData delivery = awaitOne(MicrometerTracing.DELIVER, entry.messageId());
          assertThat(delivery.getParentSpanId()).as("a new root").isEqualTo(INVALID_PARENT);
          assertThat(delivery.getTraceId()).isNotEqualToIgnoringCase(hostile.substring(3, 35));
          assertThat(tag(delivery, MicrometerTracing.OUTCOME)).isEqualTo("done");
          assertThat(delivery.getStatus().getStatusCode())
              .isNotEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
          await()
              .atMost(PATIENCE)
              .until(() -> "delivered".equals(column(context, entry.id(), "state")));
          assertThat(RECEIVED.get(entry.messageId()).get(0).traceId())
              .isEqualTo(delivery.getTraceId());
        });
  }

  @Test
  void aRowAppendedOutsideAnySpanIsDeliveredInANewTrace() {
    traced.run(
        context -> {
          OutboxEntry entry = context.getBean(Orders.class).append(CHARGE, "{}");

          assertThat(column(context, entry.id(), "traceparent")).isNull();
          SpanData delivery = awaitOne(MicrometerTracing.DELIVER, entry.messageId());
          assertThat(delivery.getParentSpanId()).isEqualTo(INVALID_PARENT);
        });
  }

  @Test
  void aRestartBetweenTheCommitAndTheDeliveryContinuesTheStoredTrace() {
    Map<String, Object> appended = new java.util.HashMap<>();
    traced
        .withPropertyValues("once.outbox.relay.enabled=false")
        .run(
            context -> {
              Traced<OutboxEntry> request =
                  inSpan(context, () -> context.getBean(Orders.class).append(CHARGE, "{}"));
              appended.put("request", request);
            });
    @SuppressWarnings("unchecked")
    Traced<OutboxEntry> request = (Traced<OutboxEntry>) appended.get("request");
    assertThat(spans(MicrometerTracing.DELIVER, request.value().messageId()))
        .as("not delivered before the restart")
        .isEmpty();

    traced.run(
        context -> {
          SpanData delivery = awaitOne(MicrometerTracing.DELIVER, request.value().messageId());
          assertThat(delivery.getTraceId()).isEqualTo(request.traceId());
          assertThat(delivery.getParentSpanId()).isEqualTo(request.spanId());
        });
  }

  @Test
  void withoutATracerNothingIsStoredAndNothingIsWrapped() {
    runner.run(
        context -> {
          assertThat(context).doesNotHaveBean(OnceTracing.class);
          assertThat(context.getBean(dev.once.inbox.Inbox.class).getClass().getSimpleName())
              .isEqualTo("ObservedInbox");
          OutboxEntry entry = context.getBean(Orders.class).append(CHARGE, "{}");

          assertThat(column(context, entry.id(), "traceparent")).isNull();
          assertThat(column(context, entry.id(), "tracestate")).isNull();
          await().atMost(PATIENCE).until(() -> RECEIVED.containsKey(entry.messageId()));
          assertThat(RECEIVED.get(entry.messageId())).containsExactly((TraceContext) null);
        });
  }

  @Test
  void aNoopTracerAndPropagatorCountAsNone() {
    runner
        .withBean(Tracer.class, () -> Tracer.NOOP)
        .withBean(
            io.micrometer.tracing.propagation.Propagator.class,
            () -> io.micrometer.tracing.propagation.Propagator.NOOP)
        .run(
            context -> {
              assertThat(context.getBean(OnceTracing.class)).isSameAs(OnceTracing.NONE);
              OutboxEntry entry = context.getBean(Orders.class).append(CHARGE, "{}");
              assertThat(column(context, entry.id(), "traceparent")).isNull();
            });
  }
}
