package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.Faults;
import dev.once.shop.broken.BrokenMode;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link BrokenMode#MARK_DELIVERED_BEFORE_CALL} really breaks the shop, as {@code once-verify
 * chaos} must be able to see: a charge the provider never applied (every call answered 503) ends
 * with its outbox row delivered and its payment pending for good.
 */
@TestPropertySource(
    properties = {
      BrokenMode.PROPERTY + "=mark-delivered-before-call",
      BrokenMode.ALLOW_PROPERTY + "=true",
      // Delivered rows are kept to be looked at.
      "once.outbox.relay.delivered-retention=1h",
      // Shorter than the simulator's Retry-After: 1, so the one call sends one request.
      "shop.provider.deadline=500ms"
    })
class MarkDeliveredBeforeCallTest extends RelayingShopTest {
  @Test
  void aChargeTheProviderNeverAppliedIsDeliveredAndItsPaymentStaysPending() {
    provider.faults(new Faults(0, 1.0, 0, 0, 1000));
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "12.50", "EUR").text("id");

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> chargeRowState(payment), "delivered"::equals);

    assertThat(client.get("/v1/payments/" + payment).text("status")).isEqualTo("pending");
    assertThat(provider.stats(payment).requests()).isEqualTo(1);
    assertThat(provider.stats(payment).effects()).isZero();
    assertThat(client.balance(account)).isEqualTo("87.5000");
  }

  private String chargeRowState(String payment) {
    return jdbc.sql("SELECT state FROM once.outbox WHERE type = ? AND aggregate_id = ?")
        .params(PaymentService.PROVIDER_CHARGE, payment)
        .query(String.class)
        .single();
  }
}
