package dev.once.shop.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.payments.PaymentService;
import dev.once.shop.provider.RelayingShopTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * The archive and the replay in the shop as deployed: its relay runs as the application role
 * ({@code shop_app}, no right to create tables), so the archive's partitions are made by Once's
 * functions with the schema owner's rights; a settled charge ends in the archive; an operator
 * replays it over HTTP (the admin token) and the provider, which answers a repeated key with its
 * first answer, applies it once; the same replay request sent again appends nothing.
 */
@TestPropertySource(properties = "once.outbox.archive.enabled=true")
class ArchiveReplayTest extends RelayingShopTest {

  @Test
  void aSettledChargeIsArchivedAndItsReplayChargesNothingTwice() {
    Instant from = Instant.now().minusSeconds(60);
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "12.50", "EUR").text("id");
    await().atMost(Duration.ofSeconds(60)).until(() -> archived(payment) == 1);
    assertThat(client.get("/v1/payments/" + payment).text("status")).isEqualTo("succeeded");
    String body =
        """
        {"id": "%s", "type": "%s", "from": "%s", "to": "%s", "aggregateId": "%s"}
        """
            .formatted(
                UUID.randomUUID(),
                PaymentService.PROVIDER_CHARGE,
                from,
                Instant.now().plusSeconds(60),
                payment);

    ShopResponse replay = http.admin("/actuator/once/replay", body);

    replay.assertStatus(200);
    assertThat(replay.json().get("rows").asLong()).isEqualTo(1);
    assertThat(replay.json().get("repeated").asBoolean()).isFalse();
    await().atMost(Duration.ofSeconds(60)).until(() -> archived(payment) == 2);
    assertThat(provider.stats(payment).requests()).as("sent again").isEqualTo(2);
    assertThat(provider.stats(payment).effects()).as("charged once").isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("87.5000");

    ShopResponse again = http.admin("/actuator/once/replay", body);
    again.assertStatus(200);
    assertThat(again.json().get("repeated").asBoolean()).isTrue();
    assertThat(archived(payment)).isEqualTo(2);
    assertThat(
            http.adminGet("/actuator/once/replays")
                .json()
                .get("replays")
                .findValuesAsString("type"))
        .contains(PaymentService.PROVIDER_CHARGE);
    http.send(
            http.request("/actuator/once/replay")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)))
        .assertProblem(401, "unauthorized");
  }

  private long archived(String payment) {
    return jdbc.sql("SELECT count(*) FROM once.outbox_archive WHERE type = ? AND aggregate_id = ?")
        .params(PaymentService.PROVIDER_CHARGE, payment)
        .query(Long.class)
        .single();
  }
}
