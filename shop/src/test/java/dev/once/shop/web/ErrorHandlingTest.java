package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every error, including the framework's own, is an RFC 9457 problem without internals. */
class ErrorHandlingTest extends ShopIntegrationTest {
  private TestClient client;

  @BeforeEach
  void newClientPerTest() {
    client = newClient();
  }

  @Test
  void unknownRoutesAreNotFoundProblems() {
    client.get("/v1/nothing-here").assertProblem(404, "not-found");
    client.post("/v1/nothing-here", "{}").assertProblem(404, "not-found");
    http.send(http.request("/no/such/page").GET()).assertProblem(404, "not-found");
  }

  @Test
  void wrongMethodsAreMethodNotAllowedProblems() {
    String account = client.openAccount("EUR");
    ShopResponse delete =
        http.send(
            http.request("/v1/accounts/" + account)
                .header("Authorization", "Bearer " + client.apiKey())
                .DELETE());
    delete.assertProblem(405, "method-not-allowed");
    assertThat(delete.header("Allow")).hasValueSatisfying(v -> assertThat(v).contains("GET"));

    http.send(
            http.request("/v1/accounts")
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Content-Type", ShopHttp.JSON)
                .PUT(HttpRequest.BodyPublishers.ofString("{}")))
        .assertProblem(405, "method-not-allowed");
    client.get("/v1/payments").assertProblem(405, "method-not-allowed");
  }

  /** The members of Once's filter's problems, in its order; {@code field} last where it applies. */
  @Test
  void everyProblemHasTheSameMembers() {
    assertThat(client.get("/v1/nothing-here").fieldNames())
        .containsExactly("type", "title", "status", "detail");
    assertThat(client.post("/v1/accounts", "{\"currency\":\"eur\"}").fieldNames())
        .containsExactly("type", "title", "status", "detail", "field");
    assertThat(http.get("/v1/accounts", "no-such-key").fieldNames())
        .containsExactly("type", "title", "status", "detail");
    assertThat(http.send(http.request("/error").GET()).fieldNames())
        .containsExactly("type", "title", "status", "detail");
  }

  @Test
  void theErrorPageIsAProblemToo() {
    http.send(http.request("/error").GET()).assertNoInternals();
    assertThat(http.send(http.request("/error").GET()).header("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
  }

  @Test
  void unacceptableMediaTypesAreProblems() {
    String account = client.openAccount("EUR");
    ShopResponse answer =
        http.send(
            http.request("/v1/accounts/" + account)
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Accept", "application/xml")
                .GET());
    assertThat(answer.status()).isEqualTo(406);
    answer.assertNoInternals();
  }
}
