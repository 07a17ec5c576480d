package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAPI description documents authentication and the Idempotency-Key header. */
class OpenApiTest extends ShopIntegrationTest {

  @Test
  void documentsTheBearerSchemesAndTheIdempotencyKey() {
    ShopResponse docs = http.send(http.request("/v3/api-docs").GET()).assertStatus(200);
    JsonNode api = docs.json();

    JsonNode schemes = api.get("components").get("securitySchemes");
    assertThat(schemes.get("apiKey").get("scheme").stringValue()).isEqualTo("bearer");
    assertThat(schemes.get("adminToken").get("scheme").stringValue()).isEqualTo("bearer");

    for (String path :
        new String[] {
          "/v1/accounts", "/v1/accounts/{id}/deposits", "/v1/payments", "/v1/payments/{id}/refunds"
        }) {
      JsonNode post = api.get("paths").get(path).get("post");
      assertThat(post).as(path).isNotNull();
      assertThat(header(post, "Idempotency-Key")).as(path).isNotNull();
      assertThat(header(post, "Idempotency-Key").get("required").asBoolean()).isTrue();
      assertThat(post.get("security").toString()).contains("apiKey");
    }
    JsonNode admin = api.get("paths").get("/admin/v1/clients").get("post");
    assertThat(header(admin, "Idempotency-Key")).isNull();
    assertThat(admin.get("security").toString()).contains("adminToken");
    assertThat(api.get("paths").get("/v1/accounts/{id}/operations").get("get").toString())
        .contains("limit")
        .contains("after")
        .doesNotContain("AuthenticatedClient");
    assertThat(api.get("paths").has("/error"))
        .as("the container's error path is not API")
        .isFalse();
  }

  /** Request bodies are described by the records and constraints that validate them. */
  @Test
  void describesRequestBodiesByTheirConstraints() {
    JsonNode schemas =
        http.send(http.request("/v3/api-docs").GET()).assertStatus(200).json().get("components");
    JsonNode payment = schemas.get("schemas").get("PaymentRequest");
    assertThat(payment.get("required").toString())
        .isEqualTo("[\"accountId\",\"amount\",\"currency\"]");
    JsonNode properties = payment.get("properties");
    assertThat(properties.get("description").get("maxLength").asInt()).isEqualTo(500);
    assertThat(properties.get("amount").get("pattern").stringValue()).contains("[0-9]{1,16}");
    assertThat(
            schemas
                .get("schemas")
                .get("CreateClientRequest")
                .get("properties")
                .get("name")
                .get("maxLength")
                .asInt())
        .isEqualTo(200);
  }

  @Test
  void servesTheSwaggerUi() {
    int status = http.send(http.request("/swagger-ui.html").GET()).status();
    assertThat(status).isIn(200, 302);
    assertThat(http.send(http.request("/swagger-ui/index.html").GET()).status()).isEqualTo(200);
  }

  private static JsonNode header(JsonNode operation, String name) {
    JsonNode parameters = operation.get("parameters");
    if (parameters == null) {
      return null;
    }
    for (JsonNode parameter : parameters) {
      if ("header".equals(parameter.get("in").stringValue())
          && name.equals(parameter.get("name").stringValue())) {
        return parameter;
      }
    }
    return null;
  }
}
