package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The payment state machine as the provider relay (a later step) will drive it: success, decline
 * with a reversal that gives the money back, repeats as no-ops, and illegal transitions refused.
 */
class PaymentSettlementTest extends ShopIntegrationTest {
  @Autowired private PaymentService payments;

  private TestClient client;
  private String account;
  private String payment;
  private String charge;

  @BeforeEach
  void pendingPayment() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    var paid = client.pay(account, "30", "EUR");
    payment = paid.text("id");
    charge = paid.text("operationId");
  }

  @Test
  void successMakesThePaymentRefundableAndMovesNoMoney() {
    Payment settled = payments.settle(payment, PaymentStatus.SUCCEEDED);

    assertThat(settled.status()).isEqualTo(PaymentStatus.SUCCEEDED);
    assertThat(client.get("/v1/payments/" + payment).text("status")).isEqualTo("succeeded");
    assertThat(client.balance(account)).isEqualTo("70.0000");
    // A redelivered success is a no-op.
    assertThat(payments.settle(payment, PaymentStatus.SUCCEEDED).status())
        .isEqualTo(PaymentStatus.SUCCEEDED);
  }

  @Test
  void declineReversesTheChargeExactlyOnce() {
    Payment failed = payments.settle(payment, PaymentStatus.FAILED);
    payments.settle(payment, PaymentStatus.FAILED);

    assertThat(failed.status()).isEqualTo(PaymentStatus.FAILED);
    assertThat(client.balance(account)).isEqualTo("100.0000");
    JsonNode items = client.get("/v1/accounts/" + account + "/operations").json().get("items");
    assertThat(items).hasSize(3);
    JsonNode reversal = items.get(2);
    assertThat(reversal.get("kind").stringValue()).isEqualTo("reversal");
    assertThat(reversal.get("amount").stringValue()).isEqualTo("30.0000");
    assertThat(reversal.get("reverses").stringValue()).isEqualTo(charge);
  }

  @Test
  void finalStatusesDoNotChange() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);

    assertThatThrownBy(() -> payments.settle(payment, PaymentStatus.FAILED))
        .isInstanceOfSatisfying(
            IllegalPaymentTransitionException.class,
            e -> {
              assertThat(e.from()).isEqualTo(PaymentStatus.SUCCEEDED);
              assertThat(e.to()).isEqualTo(PaymentStatus.FAILED);
            });
    assertThat(client.balance(account)).isEqualTo("70.0000");
  }

  @Test
  void pendingIsNotAnOutcome() {
    assertThatThrownBy(() -> payments.settle(payment, PaymentStatus.PENDING))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void failedPaymentsCannotBeRefunded() {
    payments.settle(payment, PaymentStatus.FAILED);
    client
        .post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"1\"}")
        .assertProblem(422, "payment-not-refundable");
  }
}
