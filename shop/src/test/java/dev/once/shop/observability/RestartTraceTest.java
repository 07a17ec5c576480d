package dev.once.shop.observability;

import static dev.once.shop.observability.Spans.delivery;
import static dev.once.shop.observability.Spans.randomHex;
import static dev.once.shop.observability.Spans.tag;
import static dev.once.shop.observability.Spans.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.ShopApplication;
import dev.once.shop.support.DatabaseLogins;
import dev.once.shop.support.OpenApiContract;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The trace survives a shop restart between the commit and the delivery: a shop with its relay off
 * commits two payments and is closed; a new shop on the same database delivers them. The payment
 * whose request carried a trace is delivered in that trace, as the child of the request's span; the
 * payment whose stored {@code traceparent} an operator's SQL made malformed is delivered all the
 * same, as the root of a new trace.
 */
@Timeout(180)
class RestartTraceTest {
  private static final Duration SETTLED = Duration.ofSeconds(60);

  @Test
  void aDeliveryAfterARestartContinuesTheStoredTraceAndAMalformedOneStartsANewTrace() {
    String trace = randomHex(16);
    String caller = randomHex(8);
    String account;
    String traced;
    String tampered;
    TestClient client;
    try (ConfigurableApplicationContext shop = start(false)) {
      ShopHttp http = http(shop);
      client = TestClient.create(http);
      account = client.openAccountWith("EUR", "100.00");
      traced = pay(http, client, account, "00-" + trace + "-" + caller + "-01");
      tampered = pay(http, client, account, null);
    }
    JdbcClient owner =
        JdbcClient.create(DatabaseLogins.owner(Path.of(ShopIntegrationTest.DATA_DIR)));
    SpanData request =
        Spans.server("/v1/payments").filter(s -> s.getTraceId().equals(trace)).orElseThrow();
    assertThat(chargeRow(owner, traced, "traceparent"))
        .startsWith("00-" + trace + "-" + request.getSpanId());
    String malformed = "00-" + "z".repeat(32) + "-" + request.getSpanId() + "-01";
    owner
        .sql(
            "UPDATE once.outbox SET traceparent = :bad WHERE aggregate_id = :payment AND type = 'provider.charge'")
        .param("bad", malformed)
        .param("payment", tampered)
        .update();
    String tamperedMessage = chargeRow(owner, tampered, "message_id::text");
    String tracedMessage = chargeRow(owner, traced, "message_id::text");

    try (ConfigurableApplicationContext shop = start(true)) {
      TestClient again = new TestClient(http(shop), client.id(), client.apiKey());
      for (String payment : List.of(traced, tampered)) {
        await()
            .atMost(SETTLED)
            .until(() -> again.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
      }
    }

    SpanData continued =
        await().atMost(SETTLED).until(() -> deliveryOf(tracedMessage), s -> s != null);
    assertThat(continued.getTraceId()).isEqualTo(trace);
    assertThat(continued.getParentSpanId())
        .as("child of the request's span")
        .isEqualTo(request.getSpanId());
    assertThat(tag(continued, "once.outbox.outcome")).isEqualTo("done");
    SpanData fresh =
        await().atMost(SETTLED).until(() -> deliveryOf(tamperedMessage), s -> s != null);
    assertThat(fresh.getParentSpanContext().isValid()).as("a new trace, no parent").isFalse();
    assertThat(fresh.getTraceId()).isNotEqualTo(trace);
    assertThat(tag(fresh, "once.outbox.outcome")).isEqualTo("done");
  }

  /** A shop on the test JVM's embedded PostgreSQL, its relay on or off, its spans captured. */
  private static ConfigurableApplicationContext start(boolean relay) {
    // Arguments, not default properties: those would lose to application.yml.
    return new SpringApplicationBuilder(ShopApplication.class, SpanCapture.class)
        .run(
            "--server.port=0",
            "--once.embedded-postgres.clean=true",
            "--once.embedded-postgres.data-dir=" + ShopIntegrationTest.DATA_DIR,
            "--shop.admin-token=" + ShopIntegrationTest.ADMIN_TOKEN,
            "--once.outbox.relay.enabled=" + relay,
            "--once.outbox.relay.poll-interval=100ms",
            "--once.outbox.load-shedding.enabled=false",
            "--once.idempotency.limits.max-in-flight-per-client=0",
            "--once.idempotency.limits.new-keys-per-minute=0");
  }

  private static ShopHttp http(ConfigurableApplicationContext shop) {
    int port = ((WebServerApplicationContext) shop).getWebServer().getPort();
    OpenApiContract.of(port);
    return new ShopHttp(port, ShopIntegrationTest.ADMIN_TOKEN);
  }

  /** Pays 10.00 from {@code account}, with {@code traceparent} if not null; the payment's id. */
  private static String pay(ShopHttp http, TestClient client, String account, String traceparent) {
    HttpRequest.Builder request =
        http.request("/v1/payments")
            .header("Authorization", "Bearer " + client.apiKey())
            .header("Idempotency-Key", ShopHttp.newKey())
            .header("Content-Type", ShopHttp.JSON)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"accountId\":\"" + account + "\",\"amount\":\"10.00\",\"currency\":\"EUR\"}",
                    StandardCharsets.UTF_8));
    if (traceparent != null) {
      request.header("traceparent", traceparent);
    }
    return http.send(request).assertStatus(201).text("id");
  }

  /** A column ({@code traceparent}, {@code message_id::text}) of the payment's charge row. */
  private static String chargeRow(JdbcClient db, String payment, String column) {
    return db.sql(
            "SELECT "
                + column
                + " FROM once.outbox WHERE aggregate_id = :p AND type = 'provider.charge'")
        .param("p", payment)
        .query(String.class)
        .single();
  }

  private static SpanData deliveryOf(String messageId) {
    return SpanCapture.spans().stream()
        .filter(delivery("provider.charge").and(tagged("once.message.id", messageId)))
        .findFirst()
        .orElse(null);
  }
}
