package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payment and refund state machines as the provider relay drives them (called directly here):
 * success, decline with a reversal that gives the money back, repeats as no-ops, and illegal
 * transitions refused.
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

  @Test
  void eachOutcomeIsPublishedOnceInTheSettlingTransaction() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    payments.settle(payment, PaymentStatus.SUCCEEDED);

    assertThat(events(payment)).containsExactly("payment.succeeded");
    JsonNode event =
        JsonMapper.builder()
            .build()
            .readTree(
                jdbc.sql(
                        "SELECT payload::text FROM once.outbox WHERE aggregate_id = ?"
                            + " AND type = 'payment.succeeded'")
                    .param(payment)
                    .query(String.class)
                    .single());
    assertThat(event.get("paymentId").stringValue()).isEqualTo(payment);
    assertThat(event.get("accountId").stringValue()).isEqualTo(account);
    assertThat(event.get("amount").stringValue()).isEqualTo("30.0000");
    assertThat(event.get("status").stringValue()).isEqualTo("succeeded");
  }

  @Test
  void aDeclineIsPublishedOnce() {
    payments.settle(payment, PaymentStatus.FAILED);
    payments.settle(payment, PaymentStatus.FAILED);

    assertThat(events(payment)).containsExactly("payment.failed");
  }

  @Test
  void aRefusedRefundIsTakenBackOnceAndItsShareFreed() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("10").text("id");
    assertThat(client.balance(account)).isEqualTo("80.0000");

    Refund failed = payments.settleRefund(refund, PaymentStatus.FAILED);
    payments.settleRefund(refund, PaymentStatus.FAILED);

    assertThat(failed.status()).isEqualTo(PaymentStatus.FAILED);
    assertThat(client.balance(account)).isEqualTo("70.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    JsonNode items = client.get("/v1/accounts/" + account + "/operations").json().get("items");
    JsonNode reversal = items.get(items.size() - 1);
    assertThat(reversal.get("kind").stringValue()).isEqualTo("reversal");
    assertThat(reversal.get("amount").stringValue()).isEqualTo("-10.0000");
    assertThat(reversal.get("reverses").stringValue()).isEqualTo(failed.operationId());
    assertThatThrownBy(() -> payments.settleRefund(refund, PaymentStatus.SUCCEEDED))
        .isInstanceOf(IllegalPaymentTransitionException.class);
  }

  @Test
  void anAcceptedRefundMovesNoMoney() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("10").text("id");

    assertThat(payments.settleRefund(refund, PaymentStatus.SUCCEEDED).status())
        .isEqualTo(PaymentStatus.SUCCEEDED);
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("80.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("10.0000");
  }

  @Test
  void aRefusedRefundWhoseCreditIsSpentWritesNothingAndIsRetried() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("30").text("id");
    // The account spends everything, the refunded 30 included.
    client.pay(account, "100", "EUR");
    var before = rowCounts();

    assertThatThrownBy(() -> payments.settleRefund(refund, PaymentStatus.FAILED))
        .isInstanceOf(RefundReversalException.class);

    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.balance(account)).isEqualTo("0.0000");
    assertThat(
            jdbc.sql("SELECT status FROM refund WHERE id = ?")
                .param(refund)
                .query(String.class)
                .single())
        .isEqualTo("pending");
  }

  private ShopResponse refund(String amount) {
    return client
        .post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"" + amount + "\"}")
        .assertStatus(201);
  }

  private List<String> events(String aggregate) {
    return jdbc.sql(
            "SELECT type FROM once.outbox WHERE aggregate_id = ? AND type LIKE 'payment.%'"
                + " ORDER BY id")
        .param(aggregate)
        .query(String.class)
        .list();
  }
}
