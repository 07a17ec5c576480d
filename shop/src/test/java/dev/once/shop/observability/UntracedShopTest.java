package dev.once.shop.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The shop without a tracer, as {@code once-verify bench}'s {@code http-untraced} scenario starts
 * it (its tracing auto-configuration excluded, so Boot defines its no-op tracer): a payment is
 * served and its outbox row stores no trace context, so that scenario measures the payment path
 * without tracing.
 */
@TestPropertySource(
    properties =
        "spring.autoconfigure.exclude="
            + "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure"
            + ".OpenTelemetryTracingAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.autoconfigure"
            + ".MicrometerTracingAutoConfiguration")
class UntracedShopTest extends ShopIntegrationTest {
  @Autowired private Tracer tracer;

  @Test
  void aPaymentStoresNoTraceContext() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");

    String payment = client.pay(account, "10.00", "EUR").text("id");

    assertThat(tracer).isSameAs(Tracer.NOOP);
    assertThat(
            jdbc.sql(
                    "SELECT traceparent FROM once.outbox WHERE aggregate_id = :p"
                        + " AND type = 'provider.charge'")
                .param("p", payment)
                .query((rs, row) -> rs.getString(1))
                .list())
        .containsExactly((String) null);
  }
}
