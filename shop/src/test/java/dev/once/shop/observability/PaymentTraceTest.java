package dev.once.shop.observability;

import static dev.once.shop.observability.Spans.ORDER_PAID;
import static dev.once.shop.observability.Spans.SETTLED;
import static dev.once.shop.observability.Spans.delivery;
import static dev.once.shop.observability.Spans.descends;
import static dev.once.shop.observability.Spans.kind;
import static dev.once.shop.observability.Spans.named;
import static dev.once.shop.observability.Spans.one;
import static dev.once.shop.observability.Spans.randomHex;
import static dev.once.shop.observability.Spans.tag;
import static dev.once.shop.observability.Spans.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.Faults;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingConnectionDetails;
import org.springframework.context.ApplicationContext;

/**
 * One payment is one trace: the HTTP request, the relay's delivery of {@code provider.charge}, the
 * provider call, the settlement, the delivery of {@code payment.succeeded} published in it, and the
 * orders consumer that applies it, all share the request's trace id and hang below the request's
 * span; a retried delivery is a second span in the same trace. A malformed {@code traceparent} on a
 * request is ignored: the request succeeds in a new trace.
 */
@Timeout(180)
class PaymentTraceTest extends TracedShopTest {
  @Test
  void anOrderPaymentIsOneTraceFromTheRequestToTheOrdersConsumer() {
    SpanData request = Spans.paidOrder(new OrderFixture(newClient(), jdbc));
    List<SpanData> trace = Spans.untilOrderPaid(request);
    SpanData charge = one(trace, delivery("provider.charge"));
    SpanData call = one(trace, kind(SpanKind.CLIENT).and(named("provider charge")));
    SpanData settle = one(trace, named("settle charge"));
    SpanData succeeded = one(trace, delivery("payment.succeeded"));
    SpanData applied = one(trace, ORDER_PAID);

    assertThat(tag(charge, "once.outbox.outcome")).isEqualTo("done");
    assertThat(descends(charge, request, trace)).as("delivery below the request").isTrue();
    assertThat(call.getParentSpanId())
        .as("provider call in the delivery")
        .isEqualTo(charge.getSpanId());
    assertThat(tag(call, "outcome")).isEqualTo("succeeded");
    assertThat(settle.getParentSpanId())
        .as("the settlement in the delivery, after the provider call")
        .isEqualTo(charge.getSpanId());
    assertThat(tag(settle, "outcome")).isEqualTo("succeeded");
    assertThat(succeeded.getParentSpanId())
        .as("payment.succeeded published in the settlement's transaction")
        .isEqualTo(settle.getSpanId());
    assertThat(descends(applied, succeeded, trace)).as("consumer in its delivery").isTrue();
    assertThat(tag(applied, "once.inbox.duplicate")).isEqualTo("false");
  }

  @Test
  void aRetriedDeliveryIsASecondSpanInTheSameTrace() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String trace = randomHex(16);
    String parent = randomHex(8);
    provider.faults(new Faults(0, 1.0, 0, 0, 1000));

    String payment =
        pay(client, account, "00-" + trace + "-" + parent + "-01").assertStatus(201).text("id");
    // The first attempt failed at the provider (503): the row waits for its retry.
    chargeDelivered(trace, "retry");
    provider.faults(Faults.NONE);
    await()
        .atMost(SETTLED)
        .until(() -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);

    List<SpanData> spans = chargeDelivered(trace, "done");
    SpanData request = one(spans, kind(SpanKind.SERVER));
    assertThat(request.getParentSpanId())
        .as("the caller's traceparent continued")
        .isEqualTo(parent);
    List<SpanData> attempts = spans.stream().filter(delivery("provider.charge")).toList();
    SpanData failed = one(attempts, tagged("once.outbox.outcome", "retry"));
    SpanData done = one(attempts, tagged("once.outbox.outcome", "done"));
    assertThat(failed.getSpanId()).isNotEqualTo(done.getSpanId());
    assertThat(descends(failed, request, spans)).isTrue();
    assertThat(descends(done, request, spans)).isTrue();
    assertThat(Integer.parseInt(tag(done, "once.outbox.attempt")))
        .isGreaterThan(Integer.parseInt(tag(failed, "once.outbox.attempt")));
    // Each attempt called the provider in its own span: a 503, then the success.
    SpanData firstCall = one(spans, kind(SpanKind.CLIENT).and(childOf(failed)));
    SpanData secondCall = one(spans, kind(SpanKind.CLIENT).and(childOf(done)));
    assertThat(tag(firstCall, "outcome")).isEqualTo("unavailable");
    assertThat(tag(secondCall, "outcome")).isEqualTo("succeeded");
  }

  @Test
  void withoutAnOtlpEndpointTheShopHasNoExporter(@Autowired ApplicationContext shop) {
    // The test JVM has no OTEL_EXPORTER_OTLP_ENDPOINT: spans are made (SpanCapture keeps them)
    // but no exporter exists that could connect anywhere.
    assertThat(shop.getBeansOfType(SpanExporter.class)).isEmpty();
    assertThat(shop.getBeansOfType(OtlpTracingConnectionDetails.class)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "garbage",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
        "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra"
      })
  void aMalformedTraceparentIsIgnoredAndTheRequestSucceedsInANewTrace(String traceparent) {
    TestClient client = newClient();
    String account = client.openAccount("EUR");

    ShopResponse deposit =
        http.send(
            http.request("/v1/accounts/" + account + "/deposits")
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Idempotency-Key", ShopHttp.newKey())
                .header("Content-Type", ShopHttp.JSON)
                .header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":\"5.00\"}")));

    deposit.assertStatus(201);
    SpanData request =
        await()
            .atMost(SETTLED)
            .until(() -> Spans.server("/v1/accounts/" + account + "/deposits"), s -> s.isPresent())
            .orElseThrow();
    assertThat(request.getParentSpanContext().isValid()).as("a new trace, no parent").isFalse();
    assertThat(request.getTraceId()).isNotEqualTo("0af7651916cd43dd8448eb211c80319c");
  }

  private ShopResponse pay(TestClient client, String account, String traceparent) {
    return http.send(
        http.request("/v1/payments")
            .header("Authorization", "Bearer " + client.apiKey())
            .header("Idempotency-Key", ShopHttp.newKey())
            .header("Content-Type", ShopHttp.JSON)
            .header("traceparent", traceparent)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"accountId\":\"" + account + "\",\"amount\":\"12.50\",\"currency\":\"EUR\"}",
                    StandardCharsets.UTF_8)));
  }

  /** The spans of {@code trace}, once a delivery of provider.charge ended with {@code outcome}. */
  private static List<SpanData> chargeDelivered(String trace, String outcome) {
    return await()
        .atMost(SETTLED)
        .until(
            () -> SpanCapture.trace(trace),
            spans ->
                spans.stream()
                    .anyMatch(
                        delivery("provider.charge").and(tagged("once.outbox.outcome", outcome))));
  }

  private static Predicate<SpanData> childOf(SpanData parent) {
    return s -> s.getParentSpanId().equals(parent.getSpanId());
  }
}
