package dev.once.shop.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /actuator/prometheus} answers without credentials with Once's and the shop's meters, and
 * says nothing about who paid what: no client id, API key, account, payment or idempotency key, no
 * amount. No other actuator endpoint than health and prometheus is reachable.
 */
@Timeout(120)
class PrometheusEndpointTest extends TracedShopTest {
  @Test
  void aPaymentShowsInOncesMetersAndNothingOfItLeaks() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "metrics-payment-" + System.nanoTime();
    ShopResponse paid =
        http.post(
            "/v1/payments",
            client.apiKey(),
            key,
            "{\"accountId\":\"" + account + "\",\"amount\":\"12.34\",\"currency\":\"EUR\"}");
    String payment = paid.assertStatus(201).text("id");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
    // The relay's counters are read on a scrape; the delivery is counted after the row settled.
    String metrics =
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> scrape().body(),
                body -> body.contains("once_outbox_delivered_total{type=\"provider.charge\"}"));

    ShopResponse answer = scrape();
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).hasValueSatisfying(t -> t.startsWith("text/plain"));
    assertThat(metrics)
        .contains("once_idempotency_requests_total{outcome=\"executed\"}")
        .contains("once_outbox_delivered_total{type=\"provider.charge\"}")
        .contains("once_outbox_delivery_latency_seconds_count{type=\"provider.charge\"}")
        .contains("once_outbox_backlog")
        .contains("once_outbox_relay_workers")
        .contains(
            "shop_provider_calls_seconds_count{error=\"none\",operation=\"charge\","
                + "outcome=\"succeeded\"}")
        .contains(
            "shop_payment_settlements_seconds_count{error=\"none\",operation=\"charge\","
                + "outcome=\"succeeded\"}")
        .contains("http_server_requests_seconds_count");
    assertThat(metrics)
        .doesNotContain(client.id())
        .doesNotContain(client.apiKey())
        .doesNotContain(account)
        .doesNotContain(payment)
        .doesNotContain(key)
        .doesNotContain("12.34");
  }

  @Test
  void healthAndPrometheusNeedNoCredentials() {
    assertThat(get("/actuator/health").status()).isEqualTo(200);
    assertThat(scrape().status()).isEqualTo(200);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/actuator/env",
        "/actuator/configprops",
        "/actuator/beans",
        "/actuator/heapdump",
        "/actuator/threaddump",
        "/actuator/metrics",
        "/actuator/loggers",
        "/actuator/mappings"
      })
  void noOtherEndpointIsExposed(String path) {
    assertThat(get(path).status()).isEqualTo(404);
  }

  private ShopResponse scrape() {
    return get("/actuator/prometheus");
  }

  private ShopResponse get(String path) {
    return http.send(http.request(path).GET());
  }
}
