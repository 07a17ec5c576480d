package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An answer of the shop, with assertions for the shapes the API promises.
 *
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the body as text
 */
public record ShopResponse(int status, HttpHeaders headers, String body) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The body as JSON. */
  public JsonNode json() {
    return JSON.readTree(body);
  }

  /** A string member of the JSON body. */
  public String text(String field) {
    JsonNode node = json().get(field);
    assertThat(node).as("member %s of %s", field, body).isNotNull();
    return node.isNull() ? null : node.stringValue();
  }

  /** A header's first value. */
  public Optional<String> header(String name) {
    return headers.firstValue(name);
  }

  /** The member names of the JSON body, in order. */
  public List<String> fieldNames() {
    return new ArrayList<>(json().propertyNames());
  }

  /** Asserts the status, with the body in the message. */
  public ShopResponse assertStatus(int expected) {
    assertThat(status).as("status of answer %s", body).isEqualTo(expected);
    return this;
  }

  /**
   * Asserts an RFC 9457 problem: status, media type, {@code type} ending in the slug, title,
   * detail, and nothing in the body that looks like internals.
   */
  public ShopResponse assertProblem(int expectedStatus, String slug) {
    assertStatus(expectedStatus);
    assertThat(header("Content-Type"))
        .as("content type")
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = json();
    assertThat(problem.get("type").stringValue()).isEqualTo("https://once.dev/problems/" + slug);
    assertThat(problem.get("status").asInt()).isEqualTo(expectedStatus);
    assertThat(problem.get("title").stringValue()).isNotBlank();
    assertThat(problem.get("detail").stringValue()).isNotBlank();
    assertNoInternals();
    return this;
  }

  /** Asserts that the body carries no stack trace, SQL or class names. */
  public ShopResponse assertNoInternals() {
    assertThat(body)
        .doesNotContain("Exception")
        .doesNotContain("\tat ")
        .doesNotContain("at dev.once")
        .doesNotContain("org.springframework")
        .doesNotContain("org.postgresql")
        .doesNotContainIgnoringCase("select ")
        .doesNotContainIgnoringCase("insert into")
        .doesNotContain("trace");
    return this;
  }
}
