package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input on the payments API: each gets its problem, and nothing is written. */
class PaymentValidationTest extends ShopIntegrationTest {
  private TestClient client;
  private String account;
  private String succeededPayment;
  private RowCounts before;

  @BeforeEach
  void succeededPayment() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    succeededPayment = client.pay(account, "50", "EUR").text("id");
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id")
        .param("id", succeededPayment)
        .update();
    before = rowCounts();
  }

  @AfterEach
  void nothingWasWritten() {
    assertThat(rowCounts()).isEqualTo(before);
  }

  static Stream<Arguments> badPaymentBodies() {
    return Stream.of(
        // syntax
        Arguments.of("{\"accountId\":\"A\",", 400, "malformed-json"),
        Arguments.of("{\"accountId\":\"A\"}}", 400, "malformed-json"),
        Arguments.of("nope", 400, "malformed-json"),
        Arguments.of("[]", 422, "validation-failed"),
        // missing, unknown and wrongly typed fields
        Arguments.of("{\"amount\":\"1\",\"currency\":\"EUR\"}", 422, "validation-failed"),
        Arguments.of("{\"accountId\":\"ACC\",\"currency\":\"EUR\"}", 422, "validation-failed"),
        Arguments.of("{\"accountId\":\"ACC\",\"amount\":\"1\"}", 422, "validation-failed"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"EUR\",\"tip\":\"1\"}",
            422,
            "validation-failed"),
        Arguments.of(
            "{\"accountId\":42,\"amount\":\"1\",\"currency\":\"EUR\"}", 422, "validation-failed"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"EUR\",\"description\":7}",
            422,
            "validation-failed"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"EUR\",\"description\":\""
                + "d".repeat(501)
                + "\"}",
            422,
            "validation-failed"),
        // money
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":1,\"currency\":\"EUR\"}", 422, "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"0\",\"currency\":\"EUR\"}", 422, "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"-1\",\"currency\":\"EUR\"}",
            422,
            "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1.00001\",\"currency\":\"EUR\"}",
            422,
            "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"10000000000000000\",\"currency\":\"EUR\"}",
            422,
            "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1e2\",\"currency\":\"EUR\"}",
            422,
            "invalid-amount"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"eur\"}",
            422,
            "invalid-currency"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"XYZ\"}",
            422,
            "invalid-currency"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"XTS\"}",
            422,
            "invalid-currency"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":\"XXX\"}",
            422,
            "invalid-currency"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"amount\":\"1\",\"currency\":1}", 422, "invalid-currency"));
  }

  @ParameterizedTest
  @MethodSource("badPaymentBodies")
  void refusesABadPaymentBody(String template, int status, String slug) {
    client.post("/v1/payments", template.replace("ACC", account)).assertProblem(status, slug);
  }

  @Test
  void acceptsADescriptionOf500Characters() {
    // The boundary of the rule above, kept out of this class's "nothing written" check.
    before = null;
    client
        .post(
            "/v1/payments",
            "{\"accountId\":\""
                + account
                + "\",\"amount\":\"1\",\"currency\":\"EUR\",\"description\":\""
                + "d".repeat(500)
                + "\"}")
        .assertStatus(201);
    before = rowCounts();
  }

  static Stream<Arguments> badRefundBodies() {
    return Stream.of(
        Arguments.of("{\"amount\":", 400, "malformed-json"),
        Arguments.of("{\"amount\":5}", 422, "invalid-amount"),
        Arguments.of("{\"amount\":\"0\"}", 422, "invalid-amount"),
        Arguments.of("{\"amount\":\"-5\"}", 422, "invalid-amount"),
        Arguments.of("{\"amount\":\"5.00000\"}", 422, "invalid-amount"),
        Arguments.of("{\"amount\":\"12345678901234567\"}", 422, "invalid-amount"),
        Arguments.of("{\"amount\":\"5e0\"}", 422, "invalid-amount"),
        Arguments.of("{}", 422, "validation-failed"),
        Arguments.of("{\"amount\":\"5\",\"reason\":\"x\"}", 422, "validation-failed"),
        Arguments.of("5", 422, "validation-failed"));
  }

  @ParameterizedTest
  @MethodSource("badRefundBodies")
  void refusesABadRefundBody(String body, int status, String slug) {
    client.post("/v1/payments/" + succeededPayment + "/refunds", body).assertProblem(status, slug);
  }

  @Test
  void refusesWrongContentTypes() {
    for (String path :
        new String[] {"/v1/payments", "/v1/payments/" + succeededPayment + "/refunds"}) {
      client
          .http()
          .send(
              client
                  .http()
                  .request(path)
                  .header("Authorization", "Bearer " + client.apiKey())
                  .header("Idempotency-Key", ShopHttp.newKey())
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString("amount=5")))
          .assertProblem(415, "unsupported-media-type");
    }
  }

  @Test
  void refusesOversizedAndTooDeepBodies() {
    String path = "/v1/payments/" + succeededPayment + "/refunds";
    client
        .post(path, "{\"amount\":\"" + "1".repeat(1024 * 1024) + "\"}")
        .assertProblem(413, "payload-too-large");
    client
        .post(path, "{\"amount\":" + "[".repeat(64) + "]".repeat(64) + "}")
        .assertProblem(400, "json-too-deep");
    client
        .post("/v1/payments", "{\"accountId\":" + "{\"a\":".repeat(64) + "1" + "}".repeat(65))
        .assertProblem(400, "json-too-deep");
  }
}
