package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Every rejected request answers a problem and leaves no trace: no effect, no stored key. */
class BadInputTest {
  private static final String GOOD = PspClient.charge("order-1", "12.50");

  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final PspClient client = new PspClient(psp);

  @BeforeEach
  void aChargeToRefund() {
    client.charge("setup", "paid", "50.00");
  }

  @AfterEach
  void close() {
    psp.close();
  }

  private static Arguments bad(
      String name,
      String path,
      String[] headers,
      String body,
      int status,
      String slug,
      String field) {
    return Arguments.of(name, path, headers, body, status, slug, field);
  }

  private static String[] keyAnd(String... more) {
    String[] headers = new String[more.length + 4];
    headers[0] = "Idempotency-Key";
    headers[1] = "k1";
    headers[2] = "Content-Type";
    headers[3] = "application/json";
    System.arraycopy(more, 0, headers, 4, more.length);
    return headers;
  }

  private static String charge(String amount, String currency) {
    return "{\"reference\":\"order-1\",\"amount\":" + amount + ",\"currency\":" + currency + "}";
  }

  static Stream<Arguments> badRequests() {
    String json = "application/json";
    String c = "/v1/charges";
    String r = "/v1/refunds";
    return Stream.of(
        bad(
            "no key",
            c,
            new String[] {"Content-Type", json},
            GOOD,
            400,
            "invalid-idempotency-key",
            null),
        bad(
            "key with a space",
            c,
            new String[] {"Idempotency-Key", "a b", "Content-Type", json},
            GOOD,
            400,
            "invalid-idempotency-key",
            null),
        bad(
            "key of 256 characters",
            c,
            new String[] {"Idempotency-Key", "k".repeat(256), "Content-Type", json},
            GOOD,
            400,
            "invalid-idempotency-key",
            null),
        bad(
            "two keys",
            c,
            keyAnd("Idempotency-Key", "k2"),
            GOOD,
            400,
            "invalid-idempotency-key",
            null),
        bad("malformed JSON", c, keyAnd(), "{\"reference\":", 400, "malformed-json", null),
        bad("empty body", c, keyAnd(), "", 400, "malformed-json", null),
        bad("an array", c, keyAnd(), "[" + GOOD + "]", 400, "malformed-json", null),
        bad(
            "a duplicate member",
            c,
            keyAnd(),
            "{\"reference\":\"order-1\",\"amount\":\"1.00\",\"amount\":\"2.00\",\"currency\":\"EUR\"}",
            400,
            "malformed-json",
            null),
        bad("trailing content", c, keyAnd(), GOOD + "{}", 400, "malformed-json", null),
        bad(
            "amount as a JSON number",
            c,
            keyAnd(),
            charge("12.50", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "negative amount",
            c,
            keyAnd(),
            charge("\"-1.00\"", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "zero amount",
            c,
            keyAnd(),
            charge("\"0.00\"", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "five fraction digits",
            c,
            keyAnd(),
            charge("\"1.23456\"", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "seventeen integer digits",
            c,
            keyAnd(),
            charge("\"12345678901234567\"", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "exponent",
            c,
            keyAnd(),
            charge("\"1e3\"", "\"EUR\""),
            422,
            "invalid-request",
            "amount"),
        bad(
            "lower-case currency",
            c,
            keyAnd(),
            charge("\"1.00\"", "\"eur\""),
            422,
            "invalid-request",
            "currency"),
        bad(
            "four-letter currency",
            c,
            keyAnd(),
            charge("\"1.00\"", "\"EURO\""),
            422,
            "invalid-request",
            "currency"),
        bad(
            "currency null",
            c,
            keyAnd(),
            charge("\"1.00\"", "null"),
            422,
            "invalid-request",
            "currency"),
        bad(
            "unknown member",
            c,
            keyAnd(),
            "{\"reference\":\"order-1\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"note\":\"x\"}",
            422,
            "invalid-request",
            "note"),
        bad(
            "missing member",
            c,
            keyAnd(),
            "{\"reference\":\"order-1\",\"amount\":\"1.00\"}",
            422,
            "invalid-request",
            "currency"),
        bad(
            "empty reference",
            c,
            keyAnd(),
            "{\"reference\":\"\",\"amount\":\"1.00\",\"currency\":\"EUR\"}",
            422,
            "invalid-request",
            "reference"),
        bad(
            "reference of 101 characters",
            c,
            keyAnd(),
            "{\"reference\":\"" + "r".repeat(101) + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}",
            422,
            "invalid-request",
            "reference"),
        bad(
            "reference as a number",
            c,
            keyAnd(),
            "{\"reference\":1,\"amount\":\"1.00\",\"currency\":\"EUR\"}",
            422,
            "invalid-request",
            "reference"),
        bad(
            "text/plain",
            c,
            new String[] {"Idempotency-Key", "k1", "Content-Type", "text/plain"},
            GOOD,
            415,
            "unsupported-media-type",
            null),
        bad(
            "no content type",
            c,
            new String[] {"Idempotency-Key", "k1"},
            GOOD,
            415,
            "unsupported-media-type",
            null),
        bad(
            "latin-1",
            c,
            new String[] {
              "Idempotency-Key", "k1", "Content-Type", "application/json; charset=latin1"
            },
            GOOD,
            415,
            "unsupported-media-type",
            null),
        bad(
            "a body over 64 KiB",
            c,
            keyAnd(),
            "{\"reference\":\"order-1\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"pad\":\""
                + "x".repeat(64 * 1024)
                + "\"}",
            413,
            "body-too-large",
            null),
        bad(
            "refund without its charge",
            r,
            keyAnd(),
            "{\"reference\":\"refund-1\",\"amount\":\"1.00\",\"currency\":\"EUR\"}",
            422,
            "invalid-request",
            "charge"),
        bad(
            "refund amount with too many fraction digits",
            r,
            keyAnd(),
            "{\"reference\":\"refund-1\",\"charge\":\"paid\",\"amount\":\"1.00001\","
                + "\"currency\":\"EUR\"}",
            422,
            "invalid-request",
            "amount"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void isAProblemAndAppliesNothing(
      String name,
      String path,
      String[] headers,
      String body,
      int status,
      String slug,
      String field) {
    Stats before = psp.stats();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(psp.baseUri().resolve(path))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }

    HttpResponse<String> response = client.send(request.build());

    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode problem = PspClient.json(response);
    assertThat(problem.get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/" + slug);
    assertThat(problem.get("status").intValue()).isEqualTo(status);
    assertThat(problem.get("title").stringValue()).isNotBlank();
    assertThat(problem.get("detail").stringValue()).isNotBlank().doesNotContain("Exception");
    if (field != null) {
      assertThat(problem.get("field").stringValue()).isEqualTo(field);
    }
    assertThat(psp.stats()).isEqualTo(before);
    // Nothing was stored under the key either: the same key with a good body executes anew.
    HttpResponse<String> good = client.charge("k1", "order-1", "12.50");
    assertThat(good.statusCode()).isEqualTo(201);
    assertThat(good.headers().firstValue("Idempotent-Replayed")).isEmpty();
  }

  @Test
  void jsonWithAUtf8CharsetIsAccepted() {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(psp.baseUri().resolve("/v1/charges"))
                .header("Idempotency-Key", "k1")
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(GOOD))
                .build());

    assertThat(response.statusCode()).isEqualTo(201);
  }
}
