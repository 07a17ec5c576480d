package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The payments API: charges, reads, refunds, and their business rules. */
class PaymentApiTest extends ShopIntegrationTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private TestClient client;
  private String account;

  @BeforeEach
  void accountWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "100.00");
  }

  @Test
  void paymentDebitsAtOnceAndQueuesTheProviderCharge() {
    ShopResponse created =
        client.post(
            "/v1/payments",
            "{\"accountId\":\""
                + account
                + "\",\"amount\":\"30.25\",\"currency\":\"EUR\",\"description\":\"Order 42\"}");

    created.assertStatus(201);
    assertThat(created.fieldNames())
        .containsExactly(
            "id", "accountId", "amount", "currency", "status", "operationId", "refunded");
    String id = created.text("id");
    assertThat(id).startsWith("pay_");
    assertThat(created.header("Location")).hasValue("/v1/payments/" + id);
    assertThat(created.text("accountId")).isEqualTo(account);
    assertThat(created.text("amount")).isEqualTo("30.2500");
    assertThat(created.text("currency")).isEqualTo("EUR");
    assertThat(created.text("status")).isEqualTo("pending");
    assertThat(created.text("refunded")).isEqualTo("0.0000");
    assertThat(client.balance(account)).isEqualTo("69.7500");

    JsonNode charge = lastOperation(account);
    assertThat(charge.get("id").stringValue()).isEqualTo(created.text("operationId"));
    assertThat(charge.get("kind").stringValue()).isEqualTo("charge");
    assertThat(charge.get("amount").stringValue()).isEqualTo("-30.2500");

    Map<String, Object> outbox =
        jdbc.sql(
                "SELECT type, aggregate_id, payload::text AS payload FROM once.outbox"
                    + " WHERE aggregate_id = :id")
            .param("id", id)
            .query()
            .singleRow();
    assertThat(outbox.get("type")).isEqualTo(PaymentService.PROVIDER_CHARGE);
    JsonNode payload = JSON.readTree((String) outbox.get("payload"));
    assertThat(payload.get("paymentId").stringValue()).isEqualTo(id);
    assertThat(payload.get("amount").stringValue()).isEqualTo("30.2500");
    assertThat(payload.get("currency").stringValue()).isEqualTo("EUR");

    ShopResponse read = client.get("/v1/payments/" + id).assertStatus(200);
    assertThat(read.body()).isEqualTo(created.body());
  }

  @Test
  void theWholeBalanceCanBeSpentButNotMore() {
    client.pay(account, "100", "EUR");
    assertThat(client.balance(account)).isEqualTo("0.0000");
    RowCounts before = rowCounts();

    payment(account, "0.01", "EUR").assertProblem(422, "insufficient-funds");

    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void refusesAnotherCurrencyThanTheAccounts() {
    RowCounts before = rowCounts();
    payment(account, "1", "USD").assertProblem(422, "currency-mismatch");
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void currencyMismatchWinsOverInsufficientFunds() {
    payment(account, "1000", "USD").assertProblem(422, "currency-mismatch");
  }

  @Test
  void unknownAndForeignAccountsAreNotFound() {
    String theirs = newClient().openAccountWith("EUR", "100");
    RowCounts before = rowCounts();

    payment(theirs, "1", "EUR").assertProblem(404, "account-not-found");
    payment("acc_missing", "1", "EUR").assertProblem(404, "account-not-found");

    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void anotherClientsPaymentIsNotFound() {
    TestClient other = newClient();
    String theirAccount = other.openAccountWith("EUR", "10");
    String theirPayment = other.pay(theirAccount, "5", "EUR").text("id");
    markSucceeded(theirPayment);
    RowCounts before = rowCounts();

    client.get("/v1/payments/" + theirPayment).assertProblem(404, "payment-not-found");
    client.get("/v1/payments/pay_missing").assertProblem(404, "payment-not-found");
    refund(theirPayment, "1").assertProblem(404, "payment-not-found");
    refund("pay_missing", "1").assertProblem(404, "payment-not-found");
    client.get("/v1/payments/" + theirPayment + "/refunds").assertProblem(404, "payment-not-found");
    client.get("/v1/payments/not-an-id/refunds").assertProblem(404, "payment-not-found");

    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void onlySucceededPaymentsCanBeRefunded() {
    String payment = client.pay(account, "40", "EUR").text("id");
    RowCounts before = rowCounts();

    refund(payment, "1").assertProblem(422, "payment-not-refundable");

    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void aRefundReservesItsAmountAndQueuesTheProviderRefundWithoutMovingMoney() {
    ShopResponse paid = client.pay(account, "40", "EUR");
    String payment = paid.text("id");
    markSucceeded(payment);

    ShopResponse refunded = refund(payment, "15.5");

    refunded.assertStatus(201);
    assertThat(refunded.fieldNames())
        .containsExactly("id", "paymentId", "amount", "status", "operationId");
    assertThat(refunded.text("id")).startsWith("ref_");
    assertThat(refunded.text("paymentId")).isEqualTo(payment);
    assertThat(refunded.text("amount")).isEqualTo("15.5000");
    assertThat(refunded.text("status")).isEqualTo("pending");
    // Nothing is credited until the provider confirms the refund.
    assertThat(refunded.json().get("operationId").isNull()).isTrue();
    assertThat(client.balance(account)).isEqualTo("60.0000");
    assertThat(lastOperation(account).get("id").stringValue()).isEqualTo(paid.text("operationId"));

    ShopResponse read = client.get("/v1/payments/" + payment);
    assertThat(read.text("status")).isEqualTo("succeeded");
    assertThat(read.text("refunded")).isEqualTo("15.5000");

    String type =
        jdbc.sql("SELECT type FROM once.outbox WHERE aggregate_id = :id ORDER BY id DESC LIMIT 1")
            .param("id", payment)
            .query(String.class)
            .single();
    assertThat(type).isEqualTo(PaymentService.PROVIDER_REFUND);

    JsonNode listed = client.get("/v1/payments/" + payment + "/refunds").json().get("items");
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).get("id").stringValue()).isEqualTo(refunded.text("id"));
    assertThat(listed.get(0).get("status").stringValue()).isEqualTo("pending");
    assertThat(listed.get(0).get("operationId").isNull()).isTrue();
  }

  @Test
  void refundsNeverExceedThePayment() {
    String payment = client.pay(account, "40", "EUR").text("id");
    markSucceeded(payment);
    refund(payment, "30").assertStatus(201);
    RowCounts before = rowCounts();

    ShopResponse tooMuch = refund(payment, "10.01");
    tooMuch.assertProblem(422, "refund-exceeds-payment");
    assertThat(tooMuch.text("detail")).contains("10.0000");
    assertThat(rowCounts()).isEqualTo(before);

    refund(payment, "10").assertStatus(201);
    refund(payment, "0.01").assertProblem(422, "refund-exceeds-payment");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("40.0000");
    // Reserved, not yet confirmed: the account still holds what the payment left.
    assertThat(client.balance(account)).isEqualTo("60.0000");
  }

  private ShopResponse payment(String accountId, String amount, String currency) {
    return client.tryToPay(accountId, amount, currency);
  }

  private ShopResponse refund(String paymentId, String amount) {
    return client.post("/v1/payments/" + paymentId + "/refunds", "{\"amount\":\"" + amount + "\"}");
  }

  /** The provider's success, recorded behind the relay's back (this context runs none). */
  private void markSucceeded(String paymentId) {
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id AND status = 'pending'")
        .param("id", paymentId)
        .update();
  }

  private JsonNode lastOperation(String accountId) {
    JsonNode items =
        client.get("/v1/accounts/" + accountId + "/operations?limit=200").json().get("items");
    return items.get(items.size() - 1);
  }
}
