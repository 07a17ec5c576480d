package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.shop.persistence.Ids;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payment and refund state machines as the provider relay drives them (called directly here):
 * success, decline with a reversal that gives the money back, repeats as no-ops, and illegal
 * transitions refused. A refund moves money only when the provider confirms it; refunds written
 * before V6 (credited at request time) still settle as they were accepted.
 */
class PaymentSettlementTest extends ShopIntegrationTest {
  @Autowired private PaymentService payments;
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;

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
  void aPaymentOfNoOrderPublishesNoOutcome() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);

    assertThat(events(payment)).isEmpty();
  }

  @Test
  void eachOutcomeIsPublishedOnceInTheSettlingTransaction() {
    String payment = orderPayment();
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
    String payment = orderPayment();
    payments.settle(payment, PaymentStatus.FAILED);
    payments.settle(payment, PaymentStatus.FAILED);

    assertThat(events(payment)).containsExactly("payment.failed");
  }

  @Test
  void aRefusedRefundMovesNoMoneyAndFreesItsShare() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("10").text("id");
    // Asked for, not confirmed: the amount is reserved on the payment, the account is untouched.
    assertThat(client.balance(account)).isEqualTo("70.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("10.0000");
    int rows = operations().size();

    Refund failed = payments.settleRefund(refund, PaymentStatus.FAILED);
    payments.settleRefund(refund, PaymentStatus.FAILED);

    assertThat(failed.status()).isEqualTo(PaymentStatus.FAILED);
    assertThat(failed.operationId()).isEmpty();
    assertThat(client.balance(account)).isEqualTo("70.0000");
    assertThat(operations()).hasSize(rows);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    JsonNode listed = client.get("/v1/payments/" + payment + "/refunds").json().get("items");
    assertThat(listed.get(0).get("status").stringValue()).isEqualTo("failed");
    assertThat(listed.get(0).get("operationId").isNull()).isTrue();
    assertThatThrownBy(() -> payments.settleRefund(refund, PaymentStatus.SUCCEEDED))
        .isInstanceOf(IllegalPaymentTransitionException.class);
    // The freed share can be refunded again, in full.
    refund("30").assertStatus(201);
  }

  @Test
  void aConfirmedRefundCreditsTheAccountOnce() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    ShopResponse asked = refund("10");
    String refund = asked.text("id");
    assertThat(asked.text("status")).isEqualTo("pending");
    assertThat(asked.json().get("operationId").isNull()).isTrue();
    assertThat(client.balance(account)).isEqualTo("70.0000");

    Refund confirmed = payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);

    assertThat(confirmed.status()).isEqualTo(PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("80.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("10.0000");
    JsonNode credit = operations().get(operations().size() - 1);
    assertThat(credit.get("id").stringValue()).isEqualTo(confirmed.operationId().orElseThrow());
    assertThat(credit.get("kind").stringValue()).isEqualTo("refund");
    assertThat(credit.get("amount").stringValue()).isEqualTo("10.0000");
    assertThat(credit.get("reverses").stringValue()).isEqualTo(charge);
    assertThat(operations().findValuesAsString("kind")).containsOnlyOnce("refund");
    JsonNode listed = client.get("/v1/payments/" + payment + "/refunds").json().get("items");
    assertThat(listed.get(0).get("status").stringValue()).isEqualTo("succeeded");
    assertThat(listed.get(0).get("operationId").stringValue())
        .isEqualTo(credit.get("id").stringValue());
    assertThatThrownBy(() -> payments.settleRefund(refund, PaymentStatus.FAILED))
        .isInstanceOf(IllegalPaymentTransitionException.class);
    assertThat(client.balance(account)).isEqualTo("80.0000");
  }

  @Test
  void aRefusedRefundSettlesEvenAfterTheCustomerSpentEverything() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("30").text("id");
    // The account spends everything it holds; the refund has credited nothing to spend.
    client.pay(account, "70", "EUR").assertStatus(201);
    client.tryToPay(account, "0.01", "EUR").assertProblem(422, "insufficient-funds");
    int rows = operations().size();

    Refund failed = payments.settleRefund(refund, PaymentStatus.FAILED);

    assertThat(failed.status()).isEqualTo(PaymentStatus.FAILED);
    assertThat(client.balance(account)).isEqualTo("0.0000");
    assertThat(operations()).hasSize(rows);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
  }

  @Test
  void aRefundCreditedBeforeV6IsNotCreditedAgainWhenConfirmed() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = legacyRefund("10");
    assertThat(client.balance(account)).isEqualTo("80.0000");

    Refund confirmed = payments.settleRefund(refund, PaymentStatus.SUCCEEDED);

    assertThat(confirmed.operationId()).hasValue(legacyCredit(refund));
    assertThat(client.balance(account)).isEqualTo("80.0000");
    assertThat(operations().findValuesAsString("kind")).containsOnlyOnce("refund");
  }

  @Test
  void aRefundCreditedBeforeV6IsTakenBackOnceWhenRefused() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = legacyRefund("10");

    payments.settleRefund(refund, PaymentStatus.FAILED);
    payments.settleRefund(refund, PaymentStatus.FAILED);

    assertThat(client.balance(account)).isEqualTo("70.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    JsonNode reversal = operations().get(operations().size() - 1);
    assertThat(reversal.get("kind").stringValue()).isEqualTo("reversal");
    assertThat(reversal.get("amount").stringValue()).isEqualTo("-10.0000");
    assertThat(reversal.get("reverses").stringValue()).isEqualTo(legacyCredit(refund));
  }

  @Test
  void aRefusedRefundCreditedBeforeV6WhoseCreditIsSpentWritesNothing() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = legacyRefund("30");
    // The account spends everything, the refunded 30 included.
    client.pay(account, "100", "EUR").assertStatus(201);
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

  @Test
  void theApplicationCannotMarkARefundAsCreditedAtRequest() {
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    String refund = refund("10").text("id");

    assertThatThrownBy(
            () ->
                jdbc.sql("UPDATE refund SET credited_at_request = true WHERE id = ?")
                    .param(refund)
                    .update())
        .rootCause()
        .hasMessageContaining("permission denied");
    assertThatThrownBy(
            () ->
                jdbc.sql(
                        "INSERT INTO refund (id, payment_id, amount, status, created_at,"
                            + " credited_at_request) VALUES (?, ?, 1, 'pending', now(), true)")
                    .params(Ids.next(Ids.REFUND), payment)
                    .update())
        .rootCause()
        .hasMessageContaining("permission denied");
  }

  /**
   * A pending refund as the shop wrote it before V6: the account credited at request time, the
   * refund row naming that credit.
   */
  private String legacyRefund(String amount) {
    String refund = Ids.next(Ids.REFUND);
    String credit = Ids.next(Ids.OPERATION);
    jdbc.sql(
            "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
                + " VALUES (?, ?, 'refund', ?::numeric, ?, now())")
        .params(credit, account, amount, charge)
        .update();
    jdbc.sql("UPDATE payment SET refunded = refunded + ?::numeric WHERE id = ?")
        .params(amount, payment)
        .update();
    // Only the schema owner may write credited_at_request, as V6 did for the refunds it found.
    JdbcClient.create(ownerDataSource())
        .sql(
            "INSERT INTO refund (id, payment_id, amount, status, operation_id, created_at,"
                + " credited_at_request) VALUES (?, ?, ?::numeric, 'pending', ?, now(), true)")
        .params(refund, payment, amount, credit)
        .update();
    return refund;
  }

  private String legacyCredit(String refund) {
    return jdbc.sql("SELECT operation_id FROM refund WHERE id = ?")
        .param(refund)
        .query(String.class)
        .single();
  }

  private JsonNode operations() {
    return client.get("/v1/accounts/" + account + "/operations?limit=200").json().get("items");
  }

  private ShopResponse refund(String amount) {
    return client
        .post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"" + amount + "\"}")
        .assertStatus(201);
  }

  /** The pending payment of a reserved order of 30.00, which waits for it. */
  private String orderPayment() {
    OrderFixture shop = new OrderFixture(client, jdbc);
    shop.product("SETTLE", "30.00", "EUR", 1);
    String order = shop.place(account, OrderFixture.lines("SETTLE", 1));
    new EventDelivery(jdbc, inbox, consumers).pump(order);
    return shop.pay(order);
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
