package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Amounts respect their currency's minor units (ISO 4217 through {@link
 * java.util.Currency#getDefaultFractionDigits()}) on every endpoint that takes one: deposits (the
 * account's currency), payments (the request's), refunds (the payment's) and product prices (the
 * request's). The value decides, not the spelling: trailing zeros are fine. A refusal is 422 {@code
 * invalid-amount} naming the field, and writes nothing.
 */
class MinorUnitsTest extends ShopIntegrationTest {
  private TestClient client;

  @BeforeEach
  void newClientForEachTest() {
    client = newClient();
  }

  static Stream<Arguments> tooPrecise() {
    return Stream.of(
        Arguments.of("JPY", "1.5"),
        Arguments.of("JPY", "0.1"),
        Arguments.of("JPY", "100.0001"),
        Arguments.of("KRW", "10.5"),
        Arguments.of("EUR", "0.001"),
        Arguments.of("EUR", "12.345"),
        Arguments.of("USD", "1.0001"),
        Arguments.of("GBP", "9999999999999999.999"),
        Arguments.of("KWD", "0.0001"),
        Arguments.of("BHD", "1.2345"));
  }

  static Stream<Arguments> fitting() {
    return Stream.of(
        Arguments.of("JPY", "150", "150.0000"),
        Arguments.of("JPY", "100.0", "100.0000"),
        Arguments.of("JPY", "7.0000", "7.0000"),
        Arguments.of("EUR", "1.5", "1.5000"),
        Arguments.of("EUR", "1.50", "1.5000"),
        Arguments.of("EUR", "1.500", "1.5000"),
        Arguments.of("EUR", "1.5000", "1.5000"),
        Arguments.of("KWD", "0.001", "0.0010"),
        Arguments.of("KWD", "1.2340", "1.2340"),
        Arguments.of("CLF", "0.0001", "0.0001"));
  }

  /** Malformed whatever the currency: the format comes first, the minor units after it. */
  static Stream<Arguments> hostile() {
    return Stream.of("\"-1\"", "\"0\"", "\"0.0\"", "\"1e3\"", "\"1E-2\"", "\"12345678901234567\"")
        .flatMap(amount -> Stream.of("JPY", "EUR", "KWD").map(c -> Arguments.of(c, amount)));
  }

  @ParameterizedTest
  @MethodSource("tooPrecise")
  void aDepositFinerThanTheAccountsCurrencyIsRefused(String currency, String amount) {
    String account = client.openAccountWith(currency, "1000");
    RowCounts before = rowCounts();

    ShopResponse refused = deposit(account, amount);

    refused.assertProblem(422, "invalid-amount");
    assertThat(refused.text("field")).isEqualTo("amount");
    assertThat(refused.text("detail")).contains(currency);
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.balance(account)).isEqualTo("1000.0000");
  }

  @ParameterizedTest
  @MethodSource("fitting")
  void aDepositThatFitsIsTakenByValue(String currency, String amount, String stored) {
    String account = client.openAccount(currency);

    ShopResponse deposited = client.deposit(account, amount).assertStatus(201);

    assertThat(deposited.text("amount")).isEqualTo(stored);
    assertThat(client.balance(account)).isEqualTo(stored);
  }

  @ParameterizedTest
  @MethodSource("tooPrecise")
  void aPaymentFinerThanItsCurrencyIsRefused(String currency, String amount) {
    String account = client.openAccountWith(currency, "1000");
    RowCounts before = rowCounts();

    ShopResponse refused = client.tryToPay(account, amount, currency);

    refused.assertProblem(422, "invalid-amount");
    assertThat(refused.text("field")).isEqualTo("amount");
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void aPaymentIsCheckedAgainstTheCurrencyItNames() {
    String euros = client.openAccountWith("EUR", "100");
    RowCounts before = rowCounts();

    // 1.5 fits EUR, the account's, but not JPY, the request's.
    client.tryToPay(euros, "1.5", "JPY").assertProblem(422, "invalid-amount");
    // 2 fits JPY: then the account's currency is the fault.
    client.tryToPay(euros, "2", "JPY").assertProblem(422, "currency-mismatch");
    assertThat(rowCounts()).isEqualTo(before);
    client.pay(euros, "1.50", "EUR").assertStatus(201);
  }

  @ParameterizedTest
  @MethodSource("tooPrecise")
  void aRefundFinerThanThePaymentsCurrencyIsRefused(String currency, String amount) {
    String account = client.openAccountWith(currency, "9999999999999999");
    String payment = client.pay(account, "9999999999999999", currency).assertStatus(201).text("id");
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id")
        .param("id", payment)
        .update();
    RowCounts before = rowCounts();

    ShopResponse refused =
        client.post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"" + amount + "\"}");

    refused.assertProblem(422, "invalid-amount");
    assertThat(refused.text("field")).isEqualTo("amount");
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
  }

  @Test
  void aRefundThatFitsIsTakenByValue() {
    String account = client.openAccountWith("JPY", "1000");
    String payment = client.pay(account, "500", "JPY").assertStatus(201).text("id");
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id")
        .param("id", payment)
        .update();

    ShopResponse refund =
        client.post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"120.000\"}");

    refund.assertStatus(201);
    assertThat(refund.text("amount")).isEqualTo("120.0000");
  }

  @ParameterizedTest
  @MethodSource("tooPrecise")
  void aProductPriceFinerThanItsCurrencyIsRefused(String currency, String price) {
    RowCounts before = rowCounts();

    ShopResponse refused =
        client.post(
            "/v1/products",
            "{\"sku\":\"SKU-1\",\"name\":\"One\",\"price\":\""
                + price
                + "\",\"currency\":\""
                + currency
                + "\",\"stock\":1}");

    refused.assertProblem(422, "invalid-amount");
    assertThat(refused.text("field")).isEqualTo("price");
    assertThat(rowCounts()).isEqualTo(before);
  }

  @ParameterizedTest
  @MethodSource("hostile")
  void malformedAmountsAreRefusedInEveryCurrency(String currency, String amount) {
    String account = client.openAccountWith(currency, "1000");
    RowCounts before = rowCounts();

    client
        .post("/v1/accounts/" + account + "/deposits", "{\"amount\":" + amount + "}")
        .assertProblem(422, "invalid-amount");
    client
        .post(
            "/v1/payments",
            "{\"accountId\":\""
                + account
                + "\",\"amount\":"
                + amount
                + ",\"currency\":\""
                + currency
                + "\"}")
        .assertProblem(422, "invalid-amount");
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void anUnknownCurrencyIsRefusedBeforeTheAmountIsLookedAt() {
    String account = client.openAccountWith("EUR", "100");
    RowCounts before = rowCounts();

    client
        .post(
            "/v1/payments",
            "{\"accountId\":\"" + account + "\",\"amount\":\"1.5\",\"currency\":\"ZZZ\"}")
        .assertProblem(422, "invalid-currency");
    client
        .post(
            "/v1/payments",
            "{\"accountId\":\"" + account + "\",\"amount\":\"1.5\",\"currency\":\"XAU\"}")
        .assertProblem(422, "invalid-currency");
    client
        .post(
            "/v1/products",
            "{\"sku\":\"SKU-2\",\"name\":\"Two\",\"price\":\"1.5\",\"currency\":\"XXX\",\"stock\":1}")
        .assertProblem(422, "invalid-currency");
    assertThat(rowCounts()).isEqualTo(before);
  }

  private ShopResponse deposit(String account, String amount) {
    return client.post("/v1/accounts/" + account + "/deposits", "{\"amount\":\"" + amount + "\"}");
  }
}
