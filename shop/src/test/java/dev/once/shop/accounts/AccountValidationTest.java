package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input on the accounts API: each gets its problem, and nothing is written. */
class AccountValidationTest extends ShopIntegrationTest {
  private TestClient client;
  private String account;
  private RowCounts before;

  @BeforeEach
  void accountWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    before = rowCounts();
  }

  @AfterEach
  void nothingWasWritten() {
    assertThat(rowCounts()).isEqualTo(before);
  }

  static Stream<Arguments> badAccountBodies() {
    return Stream.of(
        Arguments.of("{\"currency\":\"EUR\"", 400, "malformed-json"),
        Arguments.of("{\"currency\":'EUR'}", 400, "malformed-json"),
        Arguments.of("{\"currency\":\"EUR\",\"currency\":\"USD\"}", 400, "malformed-json"),
        Arguments.of("{\"currency\":\"EUR\"} {}", 400, "malformed-json"),
        Arguments.of("[\"EUR\"]", 422, "validation-failed"),
        Arguments.of("\"EUR\"", 422, "validation-failed"),
        Arguments.of("{}", 422, "validation-failed"),
        Arguments.of("{\"currency\":null}", 422, "validation-failed"),
        Arguments.of("{\"currency\":\"EUR\",\"owner\":\"me\"}", 422, "validation-failed"),
        Arguments.of("{\"currency\":\"eur\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"Eur\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"EURO\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"QQQ\"}", 422, "invalid-currency"),
        // Known to java.util.Currency, but not money: no currency, testing, metals, SDR.
        Arguments.of("{\"currency\":\"XXX\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"XTS\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"XAU\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"XDR\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\"\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":\" EUR\"}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":978}", 422, "invalid-currency"),
        Arguments.of("{\"currency\":[\"EUR\"]}", 422, "invalid-currency"));
  }

  @ParameterizedTest
  @MethodSource("badAccountBodies")
  void refusesABadAccountBody(String body, int status, String slug) {
    client.post("/v1/accounts", body).assertProblem(status, slug);
  }

  static Stream<Arguments> badDepositBodies() {
    return Stream.of(
        Arguments.of("{\"amount\":10}", "invalid-amount"),
        Arguments.of("{\"amount\":10.5}", "invalid-amount"),
        Arguments.of("{\"amount\":1e3}", "invalid-amount"),
        Arguments.of("{\"amount\":true}", "invalid-amount"),
        Arguments.of("{\"amount\":{\"value\":\"1\"}}", "invalid-amount"),
        Arguments.of("{\"amount\":\"0\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"0.0000\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"-5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"+5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"1.23456\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"12345678901234567\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"12345678901234567.5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"1e3\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"1E3\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\" 5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"5 \"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"1,5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\".5\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"5.\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"\u0665\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"NaN\"}", "invalid-amount"),
        Arguments.of("{\"amount\":\"0x10\"}", "invalid-amount"),
        Arguments.of("{}", "validation-failed"),
        Arguments.of("{\"amount\":null}", "validation-failed"),
        Arguments.of("{\"amount\":\"5\",\"currency\":\"EUR\"}", "validation-failed"),
        Arguments.of("[]", "validation-failed"));
  }

  @ParameterizedTest
  @MethodSource("badDepositBodies")
  void refusesABadDepositBody(String body, String slug) {
    client.post("/v1/accounts/" + account + "/deposits", body).assertProblem(422, slug);
  }

  /** Every code that java.util.Currency knows but gives no minor units (-1). */
  static Stream<String> codesWithoutMinorUnits() {
    return java.util.Currency.getAvailableCurrencies().stream()
        .filter(c -> c.getDefaultFractionDigits() < 0)
        .map(java.util.Currency::getCurrencyCode);
  }

  @ParameterizedTest
  @MethodSource("codesWithoutMinorUnits")
  void refusesEveryCodeThatIsNotMoney(String code) {
    client
        .post("/v1/accounts", "{\"currency\":\"" + code + "\"}")
        .assertProblem(422, "invalid-currency");
  }

  @Test
  void acceptsCurrenciesWithAndWithoutMinorUnits() {
    // JPY has 0 fraction digits, BHD 3: both money; kept out of the "nothing written" check.
    before = null;
    client.openAccount("JPY");
    client.openAccount("BHD");
    client.openAccount("CHF");
    before = rowCounts();
  }

  /**
   * Once's filter accepts any JSON within the body and depth limits, whatever the length of a name
   * or a number; the shop's parser must then accept it too and answer it like any other document (a
   * stored 422), never with a 400 malformed-json that would be stored under the key.
   */
  @Test
  void aVeryLongPropertyNameIsJustAnUnknownField() {
    String name = "n".repeat(60_000);
    String key = ShopHttp.newKey();
    String body = "{\"currency\":\"EUR\",\"" + name + "\":1}";
    ShopResponse answer = client.http().post("/v1/accounts", client.apiKey(), key, body);
    answer.assertProblem(422, "validation-failed");
    assertThat(answer.text("field")).isEqualTo("n".repeat(64) + "…");
    ShopResponse retry = client.http().post("/v1/accounts", client.apiKey(), key, body);
    retry.assertProblem(422, "validation-failed");
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.body()).isEqualTo(answer.body());
  }

  @Test
  void aVeryLongNumberIsJustAnUnknownField() {
    String body = "{\"currency\":\"EUR\",\"x\":0." + "0".repeat(2_000) + "1}";
    ShopResponse answer = client.post("/v1/accounts", body);
    answer.assertProblem(422, "validation-failed");
    assertThat(answer.text("field")).isEqualTo("x");
    // The same number where the amount belongs is a number, not an amount.
    client
        .post(
            "/v1/accounts/" + account + "/deposits",
            "{\"amount\":" + "9".repeat(300) + "." + "9".repeat(50_000) + "}")
        .assertProblem(422, "invalid-amount");
  }

  @Test
  void aStringOfNearlyTheWholeBodyLimitIsJustAnUnknownField() {
    String body = "{\"currency\":\"EUR\",\"x\":\"" + "s".repeat(1024 * 1024 - 40) + "\"}";
    client.post("/v1/accounts", body).assertProblem(422, "validation-failed");
  }

  @Test
  void namesTheUnknownField() {
    ShopResponse answer =
        client.post("/v1/accounts/" + account + "/deposits", "{\"amount\":\"5\",\"memo\":\"x\"}");
    answer.assertProblem(422, "validation-failed");
    assertThat(answer.text("field")).isEqualTo("memo");
    assertThat(answer.text("detail")).contains("memo");
  }

  @Test
  void refusesMalformedDepositJson() {
    client
        .post("/v1/accounts/" + account + "/deposits", "{\"amount\":")
        .assertProblem(400, "malformed-json");
  }

  @Test
  void refusesAWrongContentType() {
    client
        .http()
        .send(
            client
                .http()
                .request("/v1/accounts/" + account + "/deposits")
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Idempotency-Key", ShopHttp.newKey())
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":\"5\"}")))
        .assertProblem(415, "unsupported-media-type");
  }

  @Test
  void refusesABodyOverOneMebibyte() {
    String huge = "{\"currency\":\"" + "E".repeat(1024 * 1024) + "\"}";
    client.post("/v1/accounts", huge).assertProblem(413, "payload-too-large");
  }

  @Test
  void refusesJsonNestedDeeperThan64() {
    client
        .post("/v1/accounts/" + account + "/deposits", "{\"amount\":" + nested(64) + "}")
        .assertProblem(400, "json-too-deep");
    // One level less is valid JSON and reaches validation.
    client
        .post("/v1/accounts/" + account + "/deposits", "{\"amount\":" + nested(63) + "}")
        .assertProblem(422, "invalid-amount");
  }

  /** {@code depth} nested arrays. */
  static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }
}
