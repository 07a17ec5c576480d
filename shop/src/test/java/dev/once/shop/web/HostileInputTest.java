package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.LogCapture;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests that no client library would send, written byte for byte over a socket: each gets a 4xx
 * problem (never a 500, never Tomcat's HTML page), writes nothing, and is logged at most at DEBUG.
 */
class HostileInputTest extends ShopIntegrationTest {
  private TestClient client;
  private String account;
  private String payment;
  private RowCounts before;
  private LogCapture logs;

  @BeforeEach
  void accountWithAPayment() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    payment = client.pay(account, "10", "EUR").text("id");
    before = rowCounts();
    logs = LogCapture.start();
  }

  @AfterEach
  void nothingWrittenNothingLoggedAsAnError() {
    try {
      logs.assertNoErrors();
    } finally {
      logs.close();
    }
    assertThat(rowCounts()).isEqualTo(before);
  }

  /**
   * Numbers the fingerprint now accepts because they have an exact value (beyond the double range,
   * huge exponents, long digit strings) reach the shop's own body checks: each is a 4xx problem,
   * never a 5xx, and writes nothing.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"amount\":1e400}",
        "{\"amount\":-1e-400}",
        "{\"amount\":1e999999999999999999999}",
        "{\"amount\":123456789012345678901234567890123456789}",
        "{\"amount\":\"10\",\"n\":1e-2147483649}",
        "{\"amount\":0.00000000000000000000000000000000000000000000000000001}"
      })
  void numbersOutsideTheDoubleRangeAreProblemsOnEveryPost(String body) {
    for (String path :
        new String[] {
          "/v1/accounts",
          "/v1/accounts/" + account + "/deposits",
          "/v1/payments/" + payment + "/refunds"
        }) {
      ShopResponse answer = http.post(path, client.apiKey(), ShopHttp.newKey(), body);
      assertThat(answer.status()).as("%s %s", path, body).isBetween(400, 499);
      assertThat(answer.header("Content-Type")).hasValue("application/problem+json");
    }
  }

  /** Paths that Tomcat itself refuses, before any filter or servlet of the shop runs. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/accounts/%00",
        "/v1/accounts/..%2f..%2fadmin",
        "/v1/accounts/%5C..%5Cfoo",
        "/v1/accounts/%C3%28",
        "/v1/accounts/%C0%80",
        "/v1/payments/%00/refunds",
        "/admin/v1/clients/%00/disable",
        "/%2e%2e/%2e%2e/etc/passwd"
      })
  void pathsThatTomcatRefusesAreProblems(String path) {
    assertContainerProblem(get(path), 400, "bad-request");
  }

  @Test
  void aRequestLineOverTheHeaderLimitIsAProblem() {
    // 9,000 characters: Tomcat fails with "Request header is too large" while parsing.
    assertContainerProblem(get("/v1/accounts/" + "a".repeat(9_000)), 400, "bad-request");
  }

  @Test
  void headersOverTheLimitAreAProblem() {
    assertContainerProblem(
        get("/v1/accounts/" + account, "X-Padding: " + "p".repeat(10_000)), 400, "bad-request");
  }

  @Test
  void anUnparsableRequestLineIsAProblem() {
    assertContainerProblem(raw.send("G\u0001T", "/v1/accounts"), 400, "bad-request");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "after=%00",
        "after=%C3%28",
        "after=%ZZ",
        "%ZZ=1",
        "limit=1&%C3%28=1",
        "limit=%",
        "after=op_%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00",
        "after=op_AAAAAAAAAAAAAAAAAAAAA%C3%A9",
        "after=op_AAAAAAAAAAAAAAAAAAAAA%2F",
        "after=op_AAAAAAAAAAAAAAAAAAAAAA%20",
        "after=op_AAAAAAAAAAAAAAAAAAAAAA&after=op_AAAAAAAAAAAAAAAAAAAAAA",
        "after=%E2%80%AE"
      })
  void badQueryStringsOnTheJournalAreInvalidParameters(String query) {
    ShopResponse answer = get("/v1/accounts/" + account + "/operations?" + query);
    answer.assertProblem(400, "invalid-parameter");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/actuator/health", "/v3/api-docs", "/v1/accounts", "/no/such/page"})
  void badQueryStringsElsewhereAreNeverServerErrors(String path) {
    for (String query : List.of("%ZZ=1", "a=%C3%28", "a=%00", "%=%")) {
      ShopResponse answer = get(path + "?" + query);
      assertThat(answer.status()).as("%s?%s: %s", path, query, answer.body()).isLessThan(500);
      if (answer.status() >= 400) {
        assertThat(answer.header("Content-Type"))
            .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        answer.assertNoInternals();
      }
    }
  }

  @Test
  void aVeryLongCursorIsAnInvalidParameter() {
    get("/v1/accounts/" + account + "/operations?after=op_" + "A".repeat(7_000))
        .assertProblem(400, "invalid-parameter");
  }

  @Test
  void anUndecodableQueryIsLoggedAtDebugOnly() {
    get("/v1/accounts/" + account + "/operations?%ZZ=1").assertProblem(400, "invalid-parameter");
    logs.awaitDebug("Request refused: invalid-parameter");
  }

  /** Ids that are not ids: answered like an unknown id, without touching the database. */
  static List<String> malformedIds() {
    return List.of(
        "x",
        "a".repeat(3_000),
        "acc_" + "A".repeat(3_000),
        "%E2%82%AC",
        "%20",
        "%09",
        "%7F",
        "%25",
        "%F0%9F%98%80",
        "acc_AAAAAAAAAAAAAAAAAAAAA%C3%A9",
        "op_AAAAAAAAAAAAAAAAAAAAAA",
        "%EF%BF%BF");
  }

  @Test
  void malformedIdsInEveryPathAreNotFound() {
    String key = "Authorization: Bearer " + client.apiKey();
    String admin = "Authorization: Bearer " + ADMIN_TOKEN;
    for (String id : malformedIds()) {
      get("/v1/accounts/" + id).assertProblem(404, "account-not-found");
      get("/v1/accounts/" + id + "/operations").assertProblem(404, "account-not-found");
      raw.sendWithBody(
              "POST",
              "/v1/accounts/" + id + "/deposits",
              "{\"amount\":\"1\"}",
              key,
              "Content-Type: application/json",
              "Idempotency-Key: " + java.util.UUID.randomUUID())
          .assertProblem(404, "account-not-found");
      get("/v1/payments/" + id).assertProblem(404, "payment-not-found");
      raw.sendWithBody(
              "POST",
              "/v1/payments/" + id + "/refunds",
              "{\"amount\":\"1\"}",
              key,
              "Content-Type: application/json",
              "Idempotency-Key: " + java.util.UUID.randomUUID())
          .assertProblem(404, "payment-not-found");
      ShopResponse disable = raw.send("POST", "/admin/v1/clients/" + id + "/disable", admin);
      disable.assertProblem(404, "client-not-found");
      assertThat(disable.text("detail")).isEqualTo("No client exists with this id.");
    }
  }

  @Test
  void malformedAccountIdsInAPaymentBodyAreNotFound() {
    for (String id : List.of("x".repeat(100), "acc_" + "€".repeat(22), "ACC")) {
      client
          .post(
              "/v1/payments",
              "{\"accountId\":\"" + id + "\",\"amount\":\"1\",\"currency\":\"EUR\"}")
          .assertProblem(404, "account-not-found");
    }
  }

  @Test
  void wellFormedIdsStillWork() {
    get("/v1/accounts/" + account).assertStatus(200);
    get("/v1/payments/" + payment).assertStatus(200);
  }

  @Test
  void formBodiesAreNeverParsedOutsideSpringMvc() {
    // Spring's FormContentFilter used to decode these before the dispatcher: a 500 and ERROR logs.
    for (String method : List.of("PUT", "PATCH", "DELETE")) {
      ShopResponse answer =
          raw.sendWithBody(
              method,
              "/v1/accounts",
              "%ZZ=1",
              "Authorization: Bearer " + client.apiKey(),
              "Content-Type: application/x-www-form-urlencoded");
      answer.assertProblem(405, "method-not-allowed");
    }
  }

  @Test
  void aClientThatGoesAwayMidBodyIsNotAnError() {
    raw.abandonBody(
        "POST",
        "/admin/v1/clients",
        1_000,
        "{\"name\":\"half",
        "Authorization: Bearer " + ADMIN_TOKEN,
        "Content-Type: application/json");
    logs.awaitDebug("Request refused: bad-request");
  }

  private ShopResponse get(String target, String... headers) {
    String[] all = new String[headers.length + 1];
    all[0] = "Authorization: Bearer " + client.apiKey();
    System.arraycopy(headers, 0, all, 1, headers.length);
    return raw.send("GET", target, all);
  }

  private static void assertContainerProblem(ShopResponse answer, int status, String slug) {
    assertThat(answer.body()).doesNotContainIgnoringCase("<html").doesNotContain("Tomcat");
    answer.assertProblem(status, slug);
    assertThat(answer.header("Content-Type")).hasValue("application/problem+json");
    assertThat(answer.text("detail")).isEqualTo("The request is not valid.");
  }
}
