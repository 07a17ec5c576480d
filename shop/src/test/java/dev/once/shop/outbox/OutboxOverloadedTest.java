package dev.once.shop.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import dev.once.spring.outbox.OutboxLoadShedding;
import dev.once.testing.OldBacklog;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Load shedding as the shop runs it (on, max-due-age 5 s; the other test contexts turn it off,
 * since with their relay off every row they leave waits for ever): under an outbox backlog older
 * than the limit, a POST that appends to the outbox is answered 503 {@code outbox-overloaded} with
 * {@code Retry-After}, as the OpenAPI description documents it, and commits nothing; reads and
 * POSTs that append nothing still work. The context closes after the class, so its sampling does
 * not outlive it.
 */
@TestPropertySource(
    properties = {
      "once.outbox.load-shedding.enabled=true",
      "once.outbox.load-shedding.sample-interval=50ms"
    })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OutboxOverloadedTest extends ShopIntegrationTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  /** Rows of a type no handler takes, due an hour ago: a relay an hour behind. */
  private static final String BACKLOG = "test.backlog." + UUID.randomUUID();

  /** The operations that append to the outbox, and so can be shed. */
  private static final List<String> APPENDING =
      List.of(
          "/v1/payments",
          "/v1/payments/{id}/refunds",
          "/v1/orders",
          "/v1/orders/{id}/pay",
          "/v1/orders/{id}/cancel");

  @Autowired OutboxLoadShedding shedding;
  @Autowired DataSource dataSource;

  @AfterEach
  void noBacklog() {
    new OldBacklog(dataSource, BACKLOG).clear();
  }

  private void oldBacklog() {
    new OldBacklog(dataSource, BACKLOG).add(1);
    await().atMost(PATIENCE).until(shedding::isShedding);
  }

  @Test
  void aPaymentIsRefused503OutboxOverloadedAndLeavesNothingWhileReadsGoOn() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    oldBacklog();
    String key = ShopHttp.newKey();

    ShopResponse refused =
        http.post(
            "/v1/payments",
            client.apiKey(),
            key,
            "{\"accountId\":\"" + account + "\",\"amount\":\"12.50\",\"currency\":\"EUR\"}");

    refused.assertProblem(503, "outbox-overloaded");
    assertThat(refused.text("title")).isEqualTo("Outbox overloaded");
    assertThat(refused.text("detail"))
        .isEqualTo(
            "The shop has more work queued than it can do in time and took nothing of this"
                + " request; send it again, with the same Idempotency-Key, after Retry-After.");
    assertThat(refused.header("Retry-After"))
        .as("an hour past the limit: come back after the limit, 5 s")
        .hasValue("5");
    assertThat(refused.header("Idempotent-Replayed")).isEmpty();
    assertThat(client.balance(account))
        .as("a GET is never shed; nothing charged")
        .isEqualTo("100.0000");
    assertThat(
            jdbc.sql("SELECT count(*) FROM payment WHERE account_id = ?")
                .param(account)
                .query(Long.class)
                .single())
        .isZero();
    assertThat(
            jdbc.sql("SELECT count(*) FROM once.idempotency_key WHERE idem_key = ?")
                .param(key)
                .query(Long.class)
                .single())
        .as("a 503 is not stored: the key is free for the retry")
        .isZero();

    // Work that appends nothing to the outbox is taken as usual.
    client.deposit(account, "1.00");
    assertThat(client.balance(account)).isEqualTo("101.0000");
  }

  @Test
  void theDescriptionListsOutboxOverloadedOnEveryOperationThatAppendsAndOnNoOther() {
    JsonNode paths =
        http.send(http.request("/v3/api-docs").GET()).assertStatus(200).json().get("paths");
    for (var path : paths.properties()) {
      for (var operation : path.getValue().properties()) {
        String name = operation.getKey() + " " + path.getKey();
        JsonNode unavailable = operation.getValue().get("responses").get("503");
        boolean appends = operation.getKey().equals("post") && APPENDING.contains(path.getKey());
        assertThat(unavailable.get("description").stringValue().contains("`outbox-overloaded`"))
            .as(name)
            .isEqualTo(appends);
        assertThat(unavailable.get("headers").get("Retry-After").get("required").asBoolean())
            .as(name)
            .isTrue();
      }
    }
  }
}
