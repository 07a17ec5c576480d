package dev.once.shop.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.once.shop.support.OpenApiContract;
import dev.once.shop.support.RawHttp;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI contract that every answer of the tests passes through is live: real answers of the
 * shop pass, and deliberately wrong variants of them are rejected, each for its own reason. A
 * validator that accepted everything (or rejected everything) fails here. The last tests prove that
 * {@link ShopHttp} and {@link RawHttp} really consult it, with a fake server that answers wrongly.
 */
class OpenApiContractTest extends ShopIntegrationTest {
  private static final String ACCOUNTS = "/v1/accounts";

  @LocalServerPort private int port;

  private OpenApiContract contract;
  private TestClient client;
  private ShopResponse opened;

  @BeforeEach
  void openAnAccount() {
    contract = OpenApiContract.of(port);
    client = newClient();
    opened = client.post(ACCOUNTS, "{\"currency\":\"EUR\"}").assertStatus(201);
  }

  @Test
  void realAnswersConform() {
    assertThat(contract.violations("POST", ACCOUNTS, opened)).isEmpty();
    String account = ACCOUNTS + "/" + opened.text("id");
    assertThat(contract.violations("GET", account, client.get(account).assertStatus(200)))
        .isEmpty();
    ShopResponse notFound =
        client.get(ACCOUNTS + "/acc_nope").assertProblem(404, "account-not-found");
    assertThat(contract.violations("GET", ACCOUNTS + "/acc_nope", notFound)).isEmpty();
    ShopResponse noRoute = client.get("/v1/nope").assertProblem(404, "not-found");
    assertThat(contract.violations("GET", "/v1/nope", noRoute)).isEmpty();
  }

  /** 200 instead of 201, and a problem with a status the operation does not list. */
  @Test
  void anUndocumentedStatusIsRejected() {
    ShopResponse ok = new ShopResponse(200, opened.headers(), opened.body());
    assertRejected("POST", ACCOUNTS, ok, "validation.response.status.unknown");
    String target = ACCOUNTS + "/acc_nope";
    ShopResponse notFound = client.get(target).assertProblem(404, "account-not-found");
    ShopResponse teapot =
        new ShopResponse(
            418, notFound.headers(), withBody(notFound, b -> b.put("status", 418)).body());
    assertRejected("GET", target, teapot, "validation.response.status.unknown");
  }

  /**
   * Were an operation to document a {@code default} answer (a problem), a 200 where it answers 201
   * must still fail: a success must be documented under its own status.
   */
  @Test
  void aDefaultAnswerDoesNotDocumentASuccess() {
    ObjectNode description = (ObjectNode) http.send(http.request("/v3/api-docs").GET()).json();
    ObjectNode responses =
        (ObjectNode) description.get("paths").get(ACCOUNTS).get("post").get("responses");
    responses.set("default", responses.get("500").deepCopy());
    OpenApiContract withDefault = OpenApiContract.of(description.toString());
    ShopResponse ok = new ShopResponse(200, opened.headers(), opened.body());
    assertThat(withDefault.violations("POST", ACCOUNTS, opened)).isEmpty();
    assertThat(withDefault.violations("POST", ACCOUNTS, ok))
        .anySatisfy(v -> assertThat(v).contains("contract.response.status.undocumented"));
  }

  @Test
  void aMissingRequiredMemberIsRejected() {
    assertRejected(
        "POST",
        ACCOUNTS,
        withBody(opened, body -> body.remove("id")),
        "validation.response.body.schema.required");
  }

  @Test
  void anUndeclaredMemberIsRejected() {
    assertRejected(
        "POST",
        ACCOUNTS,
        withBody(opened, body -> body.put("internalNote", "not in the description")),
        "validation.response.body.schema.additionalProperties");
  }

  /**
   * Strictness reaches into referenced schemas: an item of the journal is closed too, and its
   * timestamp must be a date-time.
   */
  @Test
  void anUndeclaredMemberDeepInTheBodyIsRejected() {
    String journal = ACCOUNTS + "/" + opened.text("id") + "/operations";
    client.deposit(opened.text("id"), "5");
    ShopResponse page = client.get(journal).assertStatus(200);
    assertThat(contract.violations("GET", journal, page)).isEmpty();
    assertRejected(
        "GET",
        journal,
        withBody(page, body -> ((ObjectNode) body.get("items").get(0)).put("postedBy", "x")),
        "validation.response.body.schema.additionalProperties");
    assertRejected(
        "GET",
        journal,
        withBody(page, body -> ((ObjectNode) body.get("items").get(0)).put("createdAt", "today")),
        "validation.response.body.schema.format");
  }

  /** {@code null} only where the description says {@code nullable}. */
  @Test
  void aNullThatIsNotNullableIsRejected() {
    assertRejected(
        "POST",
        ACCOUNTS,
        withBody(opened, body -> body.putNull("balance")),
        "validation.response.body.schema.type");
  }

  @Test
  void aMemberOfTheWrongTypeIsRejected() {
    assertRejected(
        "POST",
        ACCOUNTS,
        withBody(opened, body -> body.put("balance", 0)),
        "validation.response.body.schema.type");
  }

  @Test
  void aProblemWithoutTypeIsRejected() {
    String target = ACCOUNTS + "/acc_nope";
    ShopResponse notFound = client.get(target).assertProblem(404, "account-not-found");
    assertRejected(
        "GET",
        target,
        withBody(notFound, body -> body.remove("type")),
        "validation.response.body.schema.required");
  }

  @Test
  void aMissingLocationIsRejected() {
    assertThat(opened.header("Location")).isPresent();
    assertRejected(
        "POST",
        ACCOUNTS,
        withHeaders(opened, headers -> headers.remove("Location")),
        "validation.response.header.missing");
  }

  @Test
  void anUndocumentedMediaTypeIsRejected() {
    assertRejected(
        "POST",
        ACCOUNTS,
        withHeaders(opened, headers -> headers.put("Content-Type", List.of("text/plain"))),
        "validation.response.contentType.notAllowed");
  }

  /** An unknown path must be refused with a problem: not a success, not a body of another shape. */
  @Test
  void answersToUnknownPathsMustBeProblems() {
    ShopResponse noRoute = client.get("/v1/nope").assertProblem(404, "not-found");
    assertRejected(
        "GET", "/v1/nope", new ShopResponse(200, noRoute.headers(), noRoute.body()), "4xx");
    assertRejected(
        "GET",
        "/v1/nope",
        withBody(noRoute, body -> body.put("status", 400)),
        "differs from the HTTP status 404");
    assertRejected(
        "GET",
        "/v1/nope",
        withBody(noRoute, body -> body.put("trace", "at dev.once")),
        "validation.response.body.schema.additionalProperties");
    assertRejected(
        "GET",
        "/v1/nope",
        withHeaders(noRoute, headers -> headers.put("Content-Type", List.of("text/html"))),
        "validation.response.contentType.notAllowed");
  }

  /** The tests' HTTP client consults the contract: a wrong answer fails the call itself. */
  @Test
  void shopHttpRejectsAWrongAnswer() throws IOException {
    OpenApiContract.of(port); // the description comes from the real shop, never from the fake
    HttpServer fake = wrongShop();
    try {
      ShopHttp http = new ShopHttp(fake.getAddress().getPort(), ADMIN_TOKEN);
      assertThatThrownBy(() -> http.get(ACCOUNTS + "/acc_fake?x=1", client.apiKey()))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("GET " + ACCOUNTS + "/acc_fake?x=1")
          .hasMessageContaining("validation.response.body.schema.additionalProperties")
          .hasMessageContaining("internalNote");
    } finally {
      fake.stop(0);
    }
  }

  /** So does the plain-socket client of the hostile-input tests. */
  @Test
  void rawHttpRejectsAWrongAnswer() throws IOException {
    OpenApiContract.of(port);
    HttpServer fake = wrongShop();
    try {
      RawHttp raw = new RawHttp(fake.getAddress().getPort());
      assertThatThrownBy(() -> raw.send("GET", ACCOUNTS + "/acc_fake"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("GET " + ACCOUNTS + "/acc_fake")
          .hasMessageContaining("validation.response.body.schema.additionalProperties");
    } finally {
      fake.stop(0);
    }
  }

  private void assertRejected(String method, String target, ShopResponse wrong, String reason) {
    assertThat(contract.violations(method, target, wrong))
        .as("violations of a wrong answer to %s %s", method, target)
        .anySatisfy(violation -> assertThat(violation).contains(reason));
    assertThatThrownBy(() -> contract.assertConforms(method, target, wrong))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(method + " " + target)
        .hasMessageContaining(reason);
  }

  /** A server that answers every request with an account carrying an undeclared member. */
  private static HttpServer wrongShop() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body =
              "{\"id\":\"acc_fake\",\"currency\":\"EUR\",\"balance\":\"0\",\"internalNote\":\"x\"}"
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return server;
  }

  private static ShopResponse withBody(ShopResponse answer, Consumer<ObjectNode> change) {
    ObjectNode body = (ObjectNode) answer.json().deepCopy();
    change.accept(body);
    return new ShopResponse(answer.status(), answer.headers(), body.toString());
  }

  private static ShopResponse withHeaders(
      ShopResponse answer, Consumer<Map<String, List<String>>> change) {
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.putAll(answer.headers().map());
    change.accept(headers);
    return new ShopResponse(
        answer.status(), HttpHeaders.of(headers, (name, value) -> true), answer.body());
  }
}
