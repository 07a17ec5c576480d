package dev.once.shop.observability;

import static dev.once.shop.observability.Spans.ORDER_PAID;
import static dev.once.shop.observability.Spans.delivery;
import static dev.once.shop.observability.Spans.descends;
import static dev.once.shop.observability.Spans.one;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopBroker;
import dev.once.tracing.TraceContext;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * With Kafka as the transport, an order's payment is still one trace: the relay publishes {@code
 * payment.succeeded} in its delivery span, the record carries that span's {@code traceparent}
 * header, and the orders consumer group applies it in a span below it.
 */
@TestPropertySource(
    properties = {
      // The broker runs in this JVM and logs every partition it creates at INFO.
      "logging.level.kafka=WARN",
      "logging.level.state.change.logger=WARN"
    })
@Timeout(180)
class KafkaPaymentTraceTest extends TracedShopTest {
  @DynamicPropertySource
  static void kafka(DynamicPropertyRegistry registry) {
    registry.add("spring.kafka.bootstrap-servers", ShopBroker::servers);
  }

  @Test
  void theRecordCarriesTheTraceToTheOrdersConsumerGroup() {
    SpanData request = Spans.paidOrder(new OrderFixture(newClient(), jdbc));
    List<SpanData> trace = Spans.untilOrderPaid(request);
    SpanData published = one(trace, delivery("payment.succeeded"));
    SpanData applied = one(trace, ORDER_PAID);

    assertThat(descends(published, request, trace)).isTrue();
    assertThat(applied.getParentSpanId())
        .as("the consumer's span is the child of the record's traceparent")
        .isEqualTo(published.getSpanId());
    String messageId = Spans.tag(published, "once.message.id");
    ConsumerRecord<String, String> record =
        ShopBroker.readAll("payment.succeeded").stream()
            .filter(r -> messageId.equals(header(r, "once-message-id")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no record of message " + messageId));
    // Sampled; OpenTelemetry 1.62 (Spring Boot 4.1) also sets the random-trace-id flag.
    String traceparent = header(record, "traceparent");
    assertThat(traceparent)
        .startsWith("00-" + request.getTraceId() + "-" + published.getSpanId() + "-");
    assertThat(new TraceContext(traceparent, null).sampled()).isTrue();
  }

  private static String header(ConsumerRecord<String, String> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
