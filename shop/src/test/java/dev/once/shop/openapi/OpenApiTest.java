package dev.once.shop.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.idempotency.IdempotencyKey;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI description documents what the API does: authentication, the Idempotency-Key, each
 * operation's success answer with its headers, and every problem by status and slug, with examples.
 * (That every answer of the test suite conforms to it is checked on every call by the tests' HTTP
 * client.)
 */
class OpenApiTest extends ShopIntegrationTest {
  private static final Pattern SLUG = Pattern.compile("`([a-z0-9-]+)`");

  private JsonNode api() {
    return http.send(http.request("/v3/api-docs").GET()).assertStatus(200).json();
  }

  @Test
  void documentsTheBearerSchemesAndTheIdempotencyKey() {
    JsonNode api = api();
    assertThat(api.get("openapi").stringValue()).startsWith("3.0.");

    JsonNode schemes = api.get("components").get("securitySchemes");
    assertThat(schemes.get("apiKey").get("scheme").stringValue()).isEqualTo("bearer");
    assertThat(schemes.get("adminToken").get("scheme").stringValue()).isEqualTo("bearer");

    JsonNode key = api.get("components").get("parameters").get("Idempotency-Key");
    assertThat(key.get("in").stringValue()).isEqualTo("header");
    assertThat(key.get("required").asBoolean()).isTrue();
    assertThat(key.get("description").stringValue())
        .contains("visible ASCII")
        .contains("RFC 8941")
        .contains("https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/");

    for (String path :
        List.of(
            "/v1/accounts",
            "/v1/accounts/{id}/deposits",
            "/v1/payments",
            "/v1/payments/{id}/refunds",
            "/v1/products",
            "/v1/products/{sku}/restock",
            "/v1/orders",
            "/v1/orders/{id}/pay",
            "/v1/orders/{id}/cancel")) {
      JsonNode post = api.get("paths").get(path).get("post");
      assertThat(post).as(path).isNotNull();
      assertThat(post.get("parameters").toString())
          .as(path)
          .contains("#/components/parameters/Idempotency-Key");
      assertThat(post.get("security").toString()).contains("apiKey");
    }
    JsonNode admin = api.get("paths").get("/admin/v1/clients").get("post");
    assertThat(String.valueOf(admin.get("parameters"))).doesNotContain("Idempotency-Key");
    assertThat(admin.get("security").toString()).contains("adminToken");
    assertThat(api.get("paths").get("/v1/accounts/{id}/operations").get("get").toString())
        .contains("limit")
        .contains("after")
        .doesNotContain("AuthenticatedClient");
    assertThat(api.get("paths").has("/error"))
        .as("the container's error path is not API")
        .isFalse();
  }

  /** The grammar the description gives for the key is the one the filter accepts. */
  @Test
  void documentsTheKeyGrammarTheFilterAccepts() {
    Pattern documented = Pattern.compile(OpenApiConfiguration.KEY_PATTERN);
    List<String> values =
        List.of(
            "a",
            "7b0f2d5e-order-42",
            "~!#$%&'()*+,-./:;<=>?@[]^_`{|}",
            "x".repeat(255),
            "x".repeat(256),
            "",
            "a b",
            " a",
            "caf\u00e9",
            "tab\there",
            "\"abc\"",
            "\"a\\\"b\"",
            "\"a\\\\b\"",
            "\"a\\b\"",
            "\"\"",
            "\"a b\"",
            "\"" + "x".repeat(255) + "\"",
            "\"unterminated",
            "\"x\"y\"");
    for (String value : values) {
      boolean accepted;
      try {
        IdempotencyKey.parse(value);
        accepted = true;
      } catch (RuntimeException refused) {
        accepted = false;
      }
      assertThat(documented.matcher(value).matches()).as("[%s]", value).isEqualTo(accepted);
    }
    assertThatThrownBy(() -> IdempotencyKey.parse("a b")).isInstanceOf(RuntimeException.class);
  }

  /** Request bodies are described by the records and constraints that validate them. */
  @Test
  void describesRequestBodiesByTheirConstraints() {
    JsonNode schemas = api().get("components").get("schemas");
    JsonNode payment = schemas.get("PaymentRequest");
    assertThat(payment.get("required").toString())
        .isEqualTo("[\"accountId\",\"amount\",\"currency\"]");
    JsonNode properties = payment.get("properties");
    assertThat(properties.get("description").get("maxLength").asInt()).isEqualTo(500);
    String amount = properties.get("amount").get("pattern").stringValue();
    assertThat(amount).startsWith("^").endsWith("$").contains("[0-9]{1,16}");
    assertThat(Pattern.compile(amount).matcher("12.50").find()).isTrue();
    assertThat(Pattern.compile(amount).matcher("x12.50").find())
        .as("a JSON Schema pattern matches anywhere unless anchored")
        .isFalse();
    assertThat(properties.get("currency").get("pattern").stringValue()).isEqualTo("^[A-Z]{3}$");
    assertThat(properties.get("amount").get("example").stringValue()).isEqualTo("12.50");
    assertThat(
            schemas
                .get("CreateClientRequest")
                .get("properties")
                .get("name")
                .get("maxLength")
                .asInt())
        .isEqualTo(200);
  }

  /** Every member of an answer is always present: required, and nullable where it may be null. */
  @Test
  void answersRequireEveryMember() {
    JsonNode order = api().get("components").get("schemas").get("Order");
    List<String> required = new ArrayList<>();
    order.get("required").forEach(name -> required.add(name.stringValue()));
    assertThat(required)
        .containsExactlyInAnyOrderElementsOf(order.get("properties").propertyNames());
    assertThat(order.get("properties").get("paymentId").get("nullable").asBoolean()).isTrue();
    assertThat(order.get("properties").get("id").has("nullable")).isFalse();
  }

  /** The success answers: 201 with a required Location where the resource has an address. */
  @Test
  void documentsEachSuccessStatusAndItsHeaders() {
    JsonNode paths = api().get("paths");
    Map<String, String> created =
        Map.of(
            "/v1/accounts", "Location",
            "/v1/payments", "Location",
            "/v1/products", "Location",
            "/v1/orders", "Location",
            "/v1/orders/{id}/pay", "Location",
            "/v1/accounts/{id}/deposits", "",
            "/v1/payments/{id}/refunds", "",
            "/admin/v1/clients", "");
    created.forEach(
        (path, header) -> {
          JsonNode responses = paths.get(path).get("post").get("responses");
          assertThat(responses.has("200")).as(path).isFalse();
          JsonNode answer = responses.get("201");
          assertThat(answer).as(path).isNotNull();
          if (!header.isEmpty()) {
            assertThat(answer.get("headers").get(header).get("required").asBoolean())
                .as(path)
                .isTrue();
          }
          if (path.startsWith("/v1/")) {
            assertThat(answer.get("headers").get("Idempotent-Replayed").get("$ref").stringValue())
                .isEqualTo("#/components/headers/Idempotent-Replayed");
          }
        });
    assertThat(paths.get("/v1/orders/{id}/cancel").get("post").get("responses").has("200"))
        .isTrue();
    assertThat(
            paths
                .get("/v1/payments")
                .get("post")
                .get("responses")
                .get("409")
                .get("headers")
                .has("Retry-After"))
        .isTrue();
    JsonNode payment = paths.get("/v1/payments").get("post").get("responses");
    assertThat(payment.get("503").get("headers").get("Retry-After").get("required").asBoolean())
        .isTrue();
    assertThat(
            payment.get("401").get("headers").get("WWW-Authenticate").get("required").asBoolean())
        .isTrue();
  }

  /**
   * Every operation has an id, a summary and a description; an example of its request body and of
   * its answer; problem answers of the shared schema, whose slugs its description lists.
   */
  @Test
  void describesEveryOperationCompletely() {
    JsonNode api = api();
    Set<String> ids = new HashSet<>();
    int operations = 0;
    for (Map.Entry<String, JsonNode> path : api.get("paths").properties()) {
      for (Map.Entry<String, JsonNode> entry : path.getValue().properties()) {
        String name = entry.getKey() + " " + path.getKey();
        JsonNode operation = entry.getValue();
        operations++;
        assertThat(ids.add(operation.get("operationId").stringValue())).as(name).isTrue();
        assertThat(operation.get("summary").stringValue()).as(name).isNotBlank();
        String description = operation.get("description").stringValue();
        if (operation.has("requestBody")) {
          assertThat(
                  operation
                      .get("requestBody")
                      .get("content")
                      .get("application/json")
                      .has("example"))
              .as(name)
              .isTrue();
        }
        boolean success = false;
        boolean clientError = false;
        for (Map.Entry<String, JsonNode> response : operation.get("responses").properties()) {
          String status = response.getKey();
          JsonNode content = response.getValue().get("content");
          if (status.startsWith("2")) {
            success = true;
            assertThat(content.get("application/json").has("example")).as(name).isTrue();
            continue;
          }
          clientError |= status.startsWith("4");
          JsonNode problem = content.get("application/problem+json");
          assertThat(problem).as("%s %s", name, status).isNotNull();
          assertThat(problem.get("schema").get("$ref").stringValue())
              .isEqualTo("#/components/schemas/Problem");
          Matcher slugs = SLUG.matcher(response.getValue().get("description").stringValue());
          int listed = 0;
          while (slugs.find()) {
            listed++;
            assertThat(description).as(name).contains("`" + slugs.group(1) + "`");
            assertThat(problem.get("example").toString()).isNotEmpty();
          }
          assertThat(listed).as("%s %s lists its slugs", name, status).isPositive();
        }
        assertThat(success).as(name).isTrue();
        assertThat(clientError).as(name).isTrue();
        assertThat(operation.get("responses").has("401")).as(name).isTrue();
        assertThat(operation.get("responses").has("503")).as(name).isTrue();
      }
    }
    assertThat(operations).isEqualTo(21);
    JsonNode info = api.get("info");
    assertThat(info.get("license").get("name").stringValue()).isEqualTo("Apache-2.0");
    assertThat(info.get("contact").get("url").stringValue()).isNotBlank();
    assertThat(api.get("servers").get(0).get("url").stringValue()).isEqualTo("/");
  }

  /**
   * Every POST under /v1 goes through Once's filter, so each lists its per-client caps (429, with a
   * required Retry-After, never a replay) and the bound of a stored answer (422).
   */
  @Test
  void everyIdempotentOperationListsTheClientCapsAndTheAnswerLimit() {
    int idempotent = 0;
    for (Map.Entry<String, JsonNode> path : api().get("paths").properties()) {
      JsonNode post = path.getValue().get("post");
      if (!path.getKey().startsWith("/v1/") || post == null) {
        continue;
      }
      idempotent++;
      JsonNode responses = post.get("responses");
      JsonNode limited = responses.get("429");
      assertThat(limited).as(path.getKey()).isNotNull();
      assertThat(limited.get("description").stringValue())
          .contains("`too-many-requests-in-flight`")
          .contains("`too-many-new-keys`");
      assertThat(limited.get("headers").get("Retry-After").get("required").asBoolean()).isTrue();
      assertThat(limited.get("headers").has("Idempotent-Replayed")).isFalse();
      assertThat(responses.get("422").get("description").stringValue())
          .as(path.getKey())
          .contains("`answer-too-large`");
    }
    assertThat(idempotent).isEqualTo(9);
  }

  @Test
  void listsTheProblemsOfAnOperationBySlug() {
    JsonNode pay = api().get("paths").get("/v1/orders/{id}/pay").get("post");
    assertThat(pay.get("description").stringValue())
        .contains("`order-not-found`")
        .contains("`invalid-order-state`")
        .contains("`insufficient-funds`")
        .contains("`idempotency-key-reused`")
        .contains("`unauthorized`");
    assertThat(pay.get("responses").get("404").get("description").stringValue())
        .contains("`order-not-found`");
    assertThat(pay.get("responses").has("415")).as("pay takes no body").isFalse();
  }

  /**
   * Every example is valid against its schema, so the description lints clean
   * (bench/openapi-lint.sh runs redocly and spectral, which need Node.js; this runs in every
   * build). A boolean query parameter declared on a {@code String} once had the example {@code
   * "false"}, a string.
   */
  @Test
  void everyExampleMatchesItsSchema() {
    JsonNode api = api();
    assertThat(api.toString()).as("the description has examples to check").contains("\"example\"");
    assertThat(SchemaExamples.violations(api)).isEmpty();
  }

  /** The check itself fails on what it exists to catch. */
  @Test
  void theExampleCheckFindsAnExampleOfTheWrongType() {
    JsonNode api =
        tools.jackson.databind.json.JsonMapper.builder()
            .build()
            .readTree(
                """
                {"paths": {"/x": {"post": {"parameters": [
                  {"name": "force", "in": "query",
                   "schema": {"type": "boolean", "example": "false"}},
                  {"name": "n", "in": "query", "schema": {"$ref": "#/components/schemas/N"}}]}}},
                 "components": {"schemas": {
                   "N": {"type": "integer", "minimum": 1, "example": 0},
                   "Body": {"type": "object", "required": ["id"],
                            "properties": {"id": {"type": "string", "pattern": "^a"}},
                            "example": {"id": "b"}}}}}
                """);
    assertThat(SchemaExamples.violations(api))
        .hasSize(3)
        .anyMatch(v -> v.contains("parameters/0/schema/example") && v.contains("type boolean"))
        .anyMatch(v -> v.contains("schemas/N/example") && v.contains("below 1"))
        .anyMatch(v -> v.contains("schemas/Body/example.id") && v.contains("does not match"));
  }

  @Test
  void servesTheSwaggerUi() {
    ShopResponse redirect = http.send(http.request("/swagger-ui.html").GET());
    assertThat(redirect.status()).isIn(200, 302);
    assertThat(http.send(http.request("/swagger-ui/index.html").GET()).status()).isEqualTo(200);
  }
}
