package dev.once.kafka.spring;

import static dev.once.kafka.KafkaTestSupport.header;
import static dev.once.kafka.KafkaTestSupport.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import dev.once.tracing.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The trace goes through the broker: the relay's delivery span writes its W3C context into the
 * record's headers, and the consumer's inbox delivery continues it; a record whose traceparent
 * header is malformed is consumed in a new trace, not dead-lettered. Micrometer Tracing over
 * OpenTelemetry, every span sampled and kept in memory.
 */
@Timeout(120)
class KafkaTracingTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
  private static final io.opentelemetry.api.trace.Tracer OTEL =
      SdkTracerProvider.builder()
          .setSampler(Sampler.alwaysOn())
          .addSpanProcessor(SimpleSpanProcessor.create(SPANS))
          .build()
          .get("once-kafka-test");

  /** A tracer as Boot's OpenTelemetry bridge makes one, with W3C propagation. */
  @Configuration(proxyBeanMethods = false)
  static class InMemoryTracing {
    @Bean
    Tracer tracer() {
      return new OtelTracer(OTEL, new OtelCurrentTraceContext(), event -> {});
    }

    @Bean
    Propagator propagator() {
      return new OtelPropagator(
          ContextPropagators.create(W3CTraceContextPropagator.getInstance()), OTEL);
    }
  }

  private static List<SpanData> spans(String name, UUID messageId) {
    return SPANS.getFinishedSpanItems().stream()
        .filter(span -> span.getName().equals(name))
        .filter(
            span ->
                messageId
                    .toString()
                    .equals(span.getAttributes().get(AttributeKey.stringKey("once.message.id"))))
        .toList();
  }

  private static String tag(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

  /**
   * The delivery attempt that published the record, or the inbox delivery that applied it: a
   * redelivery (after a rebalance, say) may add a span tagged as a duplicate, and a failed attempt
   * one with an error, which are not it.
   */
  private static SpanData awaitOne(String name, UUID messageId) {
    await().atMost(PATIENCE).until(() -> !effective(name, messageId).isEmpty());
    List<SpanData> effective = effective(name, messageId);
    assertThat(effective).hasSize(1);
    return effective.get(0);
  }

  private static List<SpanData> effective(String name, UUID messageId) {
    return spans(name, messageId).stream()
        .filter(span -> !"true".equals(tag(span, "once.inbox.duplicate")))
        .filter(span -> !"retry".equals(tag(span, "once.outbox.outcome")))
        .filter(span -> span.getStatus().getStatusCode() != StatusCode.ERROR)
        .toList();
  }

  @Test
  void anEventPublishedInASpanIsConsumedInTheSameTrace() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String topic = "traced-" + run;
    KafkaTransportTest.app(run)
        .withUserConfiguration(InMemoryTracing.class)
        .withPropertyValues("once.kafka.topics[" + type + "]=" + topic)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              new EffectTable(context.getBean(DataSource.class)); // the consumer's table
              Tracer tracer = context.getBean(Tracer.class);
              Span request = tracer.nextSpan().name("request").start();
              UUID id;
              try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
                id =
                    context
                        .getBean(KafkaTestApplication.Events.class)
                        .publish(type, "order-" + run, "{\"n\":1}")
                        .messageId();
              } finally {
                request.end();
              }
              String traceId = request.context().traceId();

              SpanData delivery = awaitOne("once.outbox.deliver", id);
              SpanData consume = awaitOne("once.inbox.consume", id);
              assertThat(delivery.getTraceId()).isEqualTo(traceId);
              assertThat(delivery.getParentSpanId()).isEqualTo(request.context().spanId());
              assertThat(consume.getTraceId()).isEqualTo(traceId);
              assertThat(consume.getParentSpanId())
                  .as("continued from the record's headers")
                  .isEqualTo(delivery.getSpanId());
              assertThat(tag(consume, "once.consumer"))
                  .isEqualTo(KafkaTestApplication.consumer(run));

              ConsumerRecord<String, String> record = TestBroker.readAll(topic).get(0);
              // Sampled; OpenTelemetry 1.62 (Spring Boot 4.1) also sets the random-trace-id flag.
              String traceparent = header(record, OnceHeaders.TRACEPARENT);
              assertThat(traceparent)
                  .startsWith("00-" + traceId + "-" + delivery.getSpanId() + "-");
              assertThat(new TraceContext(traceparent, null).sampled()).isTrue();
              assertThat(header(record, OnceHeaders.TRACESTATE)).isNull();
            });
  }

  @Test
  void aRecordWithAMalformedTraceparentIsConsumedInANewTraceNotDeadLettered() throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String topic = "traced-bad-" + run;
    String consumer = KafkaTestApplication.consumer(run);
    String hostileTraceId = "4BF92F3577B34DA6A3CE929D0E0E4736";
    KafkaTransportTest.app(run)
        .withUserConfiguration(InMemoryTracing.class)
        .withPropertyValues(
            "once.kafka.topics[" + type + "]=" + topic, "once.kafka.consumer.max-attempts=2")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              EffectTable effects = new EffectTable(context.getBean(DataSource.class));
              UUID id = UUID.randomUUID();
              RecordHeaders headers = new RecordHeaders();
              headers.add(OnceHeaders.MESSAGE_ID, utf8(id.toString()));
              headers.add(OnceHeaders.TYPE, utf8(type));
              headers.add(
                  OnceHeaders.TRACEPARENT, utf8("00-" + hostileTraceId + "-00f067aa0ba902b7-01"));
              headers.add(OnceHeaders.TRACESTATE, new byte[] {'k', '=', (byte) 0xff, '\n'});
              try (KafkaProducer<String, byte[]> producer = KafkaTestSupport.rawProducer()) {
                producer
                    .send(new ProducerRecord<>(topic, 0, "key-" + run, utf8("{}"), headers))
                    .get();
              }

              await().atMost(PATIENCE).until(() -> effects.applied(id, consumer) == 1);
              SpanData consume = awaitOne("once.inbox.consume", id);
              assertThat(consume.getTraceId()).isNotEqualToIgnoringCase(hostileTraceId);
              assertThat(consume.getParentSpanId()).as("a new root").isEqualTo("0000000000000000");
              assertThat(tag(consume, "once.inbox.duplicate")).isEqualTo("false");
              assertThat(TestBroker.readAll(topic + ".dlt")).isEmpty();
            });
  }
}
