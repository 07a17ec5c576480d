package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.Faults;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.PaymentEvents;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * G3 end to end with the relay running against the in-process PSP simulator: every payment and
 * refund settles, a decline gives the money back, the provider applies each effect once even under
 * faults, and a row the provider keeps refusing turns dead and can be requeued.
 */
@TestPropertySource(
    properties = {
      "once.outbox.relay.retry.max-attempts=60",
      // Short delays burn attempts fast on 409s while the simulator holds a timed-out key.
      "once.outbox.relay.types[provider.charge].max-attempts=60",
      "once.outbox.relay.types[provider.refund].max-attempts=3",
      "shop.provider.read-timeout=300ms",
      // Each relay attempt is one once-client call: two requests at most against a 503 with
      // Retry-After: 1, so the dead row comes after three short attempts.
      "shop.provider.deadline=2s"
    })
class ProviderRelayTest extends RelayingShopTest {
  private static final Duration SETTLED = Duration.ofSeconds(60);

  @Autowired private PaymentEvents events;

  private TestClient client;

  @BeforeEach
  void client() {
    provider.faults(Faults.NONE);
    client = newClient();
  }

  @Test
  void aPaymentSucceedsAtTheProviderOnce() {
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "12.50", "EUR").text("id");

    awaitStatus("/v1/payments/" + payment, "succeeded");
    assertThat(provider.stats(payment).effects()).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("87.5000");
    // Settled, and in the same transaction nothing published: no order waits for this payment.
    assertThat(paymentEvents(payment)).isZero();
  }

  @Test
  void anOrdersPaymentPublishesItsOutcomeForTheOrder() {
    OrderFixture shop = new OrderFixture(client, jdbc);
    String account = client.openAccountWith("EUR", "100.00");
    shop.product("RELAY-OK", "12.50", "EUR", 5);
    shop.product("RELAY-NO", "10.51", "EUR", 5);
    String paid = shop.place(account, OrderFixture.lines("RELAY-OK", 1));
    String declined = shop.place(account, OrderFixture.lines("RELAY-NO", 1));
    await().atMost(SETTLED).until(() -> shop.status(paid), "reserved"::equals);
    await().atMost(SETTLED).until(() -> shop.status(declined), "reserved"::equals);

    String payment = shop.pay(paid);
    String refused = shop.pay(declined);

    await().atMost(SETTLED).until(() -> shop.status(paid), "paid"::equals);
    await().atMost(SETTLED).until(() -> shop.paymentId(declined) == null);
    await().atMost(SETTLED).until(() -> events.of(payment), List.of("payment.succeeded")::equals);
    await().atMost(SETTLED).until(() -> events.of(refused), List.of("payment.failed")::equals);
  }

  @Test
  void aDeclinedPaymentFailsAndItsChargeIsGivenBack() {
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "10.51", "EUR").text("id");

    awaitStatus("/v1/payments/" + payment, "failed");
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertThat(provider.stats(payment).effects()).isEqualTo(1);
    assertThat(paymentEvents(payment)).isZero();
    JsonNode items = client.get("/v1/accounts/" + account + "/operations").json().get("items");
    assertThat(items.get(items.size() - 1).get("kind").stringValue()).isEqualTo("reversal");
  }

  @Test
  void aRefundOfASucceededPaymentSucceeds() {
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "40.00", "EUR").text("id");
    awaitStatus("/v1/payments/" + payment, "succeeded");

    String refund = refund(payment, "15.00");

    awaitRefund(payment, refund, "succeeded");
    assertThat(provider.stats(refund).effects()).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("75.0000");
    JsonNode items = client.get("/v1/accounts/" + account + "/operations").json().get("items");
    JsonNode credit = items.get(items.size() - 1);
    assertThat(credit.get("kind").stringValue()).isEqualTo("refund");
    assertThat(refundOperation(payment, refund).stringValue())
        .isEqualTo(credit.get("id").stringValue());
  }

  @Test
  void aRefusedRefundFailsMovesNoMoneyAndFreesItsShare() {
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "40.00", "EUR").text("id");
    awaitStatus("/v1/payments/" + payment, "succeeded");

    String refused = refund(payment, "10.52");

    awaitRefund(payment, refused, "failed");
    assertThat(provider.stats(refused).effects()).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("60.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    // The money never moved: no credit was written, so none had to be taken back.
    JsonNode items = client.get("/v1/accounts/" + account + "/operations").json().get("items");
    assertThat(items.findValuesAsString("kind")).containsExactly("deposit", "charge");
    assertThat(refundOperation(payment, refused).isNull()).isTrue();
    // The refused share may be refunded again, in full.
    String full = refund(payment, "40.00");
    awaitRefund(payment, full, "succeeded");
    assertThat(client.balance(account)).isEqualTo("100.0000");
  }

  @Test
  void underThirtyPercentOfEachFaultEveryPaymentSettlesAndTheProviderAppliesEachOnce() {
    provider.faults(new Faults(0, 0.3, 0.3, 0.3, 1000));
    String account = client.openAccountWith("EUR", "1000.00");
    List<String> payments = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      payments.add(client.pay(account, i % 10 == 0 ? "1.51" : "2.00", "EUR").text("id"));
    }

    for (String payment : payments) {
      await()
          .atMost(SETTLED)
          .until(() -> !"pending".equals(client.get("/v1/payments/" + payment).text("status")));
    }
    provider.faults(Faults.NONE);
    for (String payment : payments) {
      assertThat(provider.stats(payment).effects()).as(payment).isEqualTo(1);
    }
    assertThat(provider.stats().errors() + provider.stats().timeouts()).isPositive();
    assertThat(provider.stats().lostAnswers()).isPositive();
    // 4 declined (1.51) and given back, 36 charged.
    assertThat(client.balance(account)).isEqualTo("928.0000");
  }

  @Test
  void aRowThatKeepsFailingTurnsDeadAndARequeueDeliversIt() {
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "50.00", "EUR").text("id");
    awaitStatus("/v1/payments/" + payment, "succeeded");
    provider.faults(new Faults(0, 1.0, 0, 0, 1000));
    String refund = refund(payment, "5.00");

    JsonNode dead = await().atMost(SETTLED).until(() -> deadRowOf(payment), row -> row != null);
    assertThat(dead.get("type").stringValue()).isEqualTo("provider.refund");
    assertThat(dead.get("attempts").asInt()).isEqualTo(3);
    assertThat(dead.get("lastError").stringValue()).contains("503");
    assertThat(refundStatus(payment, refund)).isEqualTo("pending");

    provider.faults(Faults.NONE);
    String id = dead.get("id").stringValue();
    http.admin("/admin/v1/outbox/dead/" + id + "/requeue", "").assertStatus(200);
    awaitRefund(payment, refund, "succeeded");
    assertThat(provider.stats(refund).effects()).isEqualTo(1);
    // The row is no longer dead: a second requeue finds nothing.
    http.admin("/admin/v1/outbox/dead/" + id + "/requeue", "")
        .assertProblem(404, "outbox-message-not-found");
  }

  private JsonNode deadRowOf(String aggregate) {
    String after = "0";
    while (after != null) {
      ShopResponse page = http.adminGet("/admin/v1/outbox/dead?limit=1000&after=" + after);
      for (JsonNode row : page.assertStatus(200).json().get("items")) {
        if (row.get("aggregateId").stringValue().equals(aggregate)) {
          return row;
        }
      }
      JsonNode next = page.json().get("next");
      after = next == null || next.isNull() ? null : next.stringValue();
    }
    return null;
  }

  private void awaitStatus(String path, String status) {
    await().atMost(SETTLED).until(() -> client.get(path).text("status"), status::equals);
  }

  private void awaitRefund(String payment, String refund, String status) {
    await().atMost(SETTLED).until(() -> refundStatus(payment, refund), status::equals);
  }

  /** Asks for a refund of {@code amount}; asserts 201 and returns the refund's id. */
  private String refund(String payment, String amount) {
    return client
        .post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"" + amount + "\"}")
        .assertStatus(201)
        .text("id");
  }

  /** The refund's {@code operationId} as listed: its credit's journal row, or null. */
  private JsonNode refundOperation(String payment, String refund) {
    return listedRefund(payment, refund).get("operationId");
  }

  private String refundStatus(String payment, String refund) {
    return listedRefund(payment, refund).get("status").stringValue();
  }

  private JsonNode listedRefund(String payment, String refund) {
    for (JsonNode item : client.get("/v1/payments/" + payment + "/refunds").json().get("items")) {
      if (item.get("id").stringValue().equals(refund)) {
        return item;
      }
    }
    throw new AssertionError("refund " + refund + " not listed");
  }

  /** The payment events published for {@code payment}. */
  private long paymentEvents(String payment) {
    return jdbc.sql(
            "SELECT count(*) FROM once.outbox WHERE aggregate_id = :p AND type LIKE 'payment.%'")
        .param("p", payment)
        .query(Long.class)
        .single();
  }
}
