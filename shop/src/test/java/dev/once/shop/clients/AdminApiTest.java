package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.once.shop.support.LogCapture;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The admin API: clients, their keys, disabling, and the admin token. */
class AdminApiTest extends ShopIntegrationTest {

  @Test
  void createsAClientWhoseKeyIsShownOnceAndStoredOnlyAsItsHash() throws Exception {
    ShopResponse created = http.admin("/admin/v1/clients", "{\"name\":\"Acme Ltd\"}");

    created.assertStatus(201);
    assertThat(created.fieldNames()).containsExactly("id", "name", "apiKey");
    assertThat(created.text("id")).startsWith("cli_");
    assertThat(created.text("name")).isEqualTo("Acme Ltd");
    String key = created.text("apiKey");
    assertThat(key).startsWith("shop_sk_").hasSize("shop_sk_".length() + 43);

    byte[] sha256 =
        MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    assertThat(
            jdbc.sql("SELECT client_id FROM api_key WHERE key_hash = :h")
                .param("h", sha256)
                .query(String.class)
                .single())
        .isEqualTo(created.text("id"));
    List<String> columns =
        jdbc.sql(
                "SELECT column_name FROM information_schema.columns"
                    + " WHERE table_schema = 'public' AND table_name = 'api_key'"
                    + " ORDER BY column_name")
            .query(String.class)
            .list();
    assertThat(columns).containsExactly("client_id", "created_at", "key_hash");
    assertThat(
            jdbc.sql("SELECT count(*) FROM api_key WHERE encode(key_hash, 'hex') = :hex")
                .param("hex", HexFormat.of().formatHex(sha256))
                .query(Long.class)
                .single())
        .isEqualTo(1);

    // The key works.
    http.get("/v1/accounts/acc_missing", key).assertProblem(404, "account-not-found");
  }

  /**
   * The answer that shows a key is never kept by a cache or a browser, and the admin actions are
   * logged at INFO with who did what, never with the key.
   */
  @Test
  void theKeysAnswerIsNotStoredAndAdminActionsAreLoggedWithoutTheKey() {
    ShopResponse created;
    String disabledLine;
    try (LogCapture logs = LogCapture.start()) {
      created = http.admin("/admin/v1/clients", "{\"name\":\"Logged Ltd\"}");
      http.admin("/admin/v1/clients/" + created.text("id") + "/disable", "").assertStatus(200);
      String id = created.text("id");
      List<String> lines =
          logs.events().stream()
              .filter(e -> e.getLevel() == Level.INFO)
              .map(e -> e.getFormattedMessage())
              .toList();
      assertThat(lines)
          .contains(
              "Client " + id + " created by an operator (admin token) from 127.0.0.1",
              "Client " + id + " disabled by an operator (admin token) from 127.0.0.1");
      disabledLine =
          String.join("\n", logs.events().stream().map(e -> e.getFormattedMessage()).toList());
    }
    created.assertStatus(201);
    assertThat(created.header("Cache-Control")).hasValue("no-store");
    assertThat(disabledLine).doesNotContain(created.text("apiKey"));
  }

  @Test
  void everyClientGetsItsOwnKey() {
    TestClient a = newClient();
    TestClient b = newClient();
    assertThat(a.apiKey()).isNotEqualTo(b.apiKey());
    assertThat(a.id()).isNotEqualTo(b.id());
  }

  @Test
  void disablingStopsTheKeyOnTheVeryNextRequest() {
    TestClient client = newClient();
    String account = client.openAccount("EUR");
    client.get("/v1/accounts/" + account).assertStatus(200);

    ShopResponse disabled = http.admin("/admin/v1/clients/" + client.id() + "/disable", "");

    disabled.assertStatus(200);
    assertThat(disabled.fieldNames()).containsExactly("id", "name", "disabledAt");
    assertThat(disabled.text("id")).isEqualTo(client.id());
    assertThat(disabled.text("disabledAt")).endsWith("Z");
    client.get("/v1/accounts/" + account).assertProblem(401, "unauthorized");
    client.post("/v1/accounts", "{\"currency\":\"EUR\"}").assertProblem(401, "unauthorized");

    // Disabling again is harmless and keeps the first time.
    ShopResponse again = http.admin("/admin/v1/clients/" + client.id() + "/disable", "");
    assertThat(again.assertStatus(200).text("disabledAt")).isEqualTo(disabled.text("disabledAt"));
  }

  @Test
  void disablingAnUnknownClientIsNotFound() {
    http.admin("/admin/v1/clients/cli_missing/disable", "").assertProblem(404, "client-not-found");
  }

  @Test
  void adminCallsNeedTheAdminToken() {
    TestClient client = newClient();
    RowCounts before = rowCounts();
    for (String token : new String[] {null, "wrong-token-0123456789", client.apiKey()}) {
      for (String path :
          new String[] {"/admin/v1/clients", "/admin/v1/clients/" + client.id() + "/disable"}) {
        HttpRequest.Builder request =
            http.request(path)
                .header("Content-Type", ShopHttp.JSON)
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}"));
        if (token != null) {
          request.header("Authorization", "Bearer " + token);
        }
        ShopResponse answer = http.send(request).assertProblem(401, "unauthorized");
        assertThat(answer.header("WWW-Authenticate"))
            .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      }
    }
    assertThat(rowCounts()).isEqualTo(before);
    client.get("/v1/accounts/acc_missing").assertProblem(404, "account-not-found");
  }

  @Test
  void theAdminTokenIsNotAnApiKey() {
    http.get("/v1/accounts/acc_missing", ADMIN_TOKEN).assertProblem(401, "unauthorized");
  }

  static Stream<Arguments> badClientBodies() {
    return Stream.of(
        Arguments.of("{\"name\":", 400, "malformed-json"),
        Arguments.of("", 400, "malformed-json"),
        Arguments.of("{\"name\":\"a\",\"name\":\"b\"}", 400, "malformed-json"),
        Arguments.of("[]", 422, "validation-failed"),
        Arguments.of("{}", 422, "validation-failed"),
        Arguments.of("{\"name\":null}", 422, "validation-failed"),
        Arguments.of("{\"name\":42}", 422, "validation-failed"),
        Arguments.of("{\"name\":\"   \"}", 422, "validation-failed"),
        Arguments.of("{\"name\":\"" + "n".repeat(201) + "\"}", 422, "validation-failed"),
        Arguments.of("{\"name\":\"a\\u0000b\"}", 422, "validation-failed"),
        Arguments.of("{\"name\":\"a\",\"admin\":true}", 422, "validation-failed"),
        Arguments.of("{\"name\":" + "[".repeat(64) + "]".repeat(64) + "}", 400, "json-too-deep"),
        Arguments.of("{\"name\":\"" + "n".repeat(1024 * 1024) + "\"}", 413, "payload-too-large"));
  }

  @ParameterizedTest
  @MethodSource("badClientBodies")
  void refusesABadClientBody(String body, int status, String slug) {
    RowCounts before = rowCounts();
    http.admin("/admin/v1/clients", body).assertProblem(status, slug);
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void acceptsJsonNestedExactly64Deep() {
    // 64 levels is the limit, inclusive: the body parses and only the unknown member is refused.
    http.admin(
            "/admin/v1/clients", "{\"name\":\"a\",\"x\":" + "[".repeat(63) + "]".repeat(63) + "}")
        .assertProblem(422, "validation-failed");
  }

  @Test
  void refusesAWrongContentType() {
    RowCounts before = rowCounts();
    http.send(
            http.request("/admin/v1/clients")
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}")))
        .assertProblem(415, "unsupported-media-type");
    http.send(
            http.request("/admin/v1/clients")
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}")))
        .assertProblem(415, "unsupported-media-type");
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void adminCallsNeedNoIdempotencyKey() {
    // ShopHttp.admin sends none.
    http.admin("/admin/v1/clients", "{\"name\":\"no key\"}").assertStatus(201);
  }
}
