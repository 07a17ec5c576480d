package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RoutingTest {
  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final PspClient client = new PspClient(psp);

  @AfterEach
  void close() {
    psp.close();
  }

  @Test
  void healthIsUp() {
    HttpResponse<String> response = client.get("/health");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(PspClient.json(response).get("status").stringValue()).isEqualTo("UP");
  }

  @Test
  void theBaseUriNamesTheBoundPort() {
    assertThat(psp.port()).isPositive();
    assertThat(psp.baseUri().toString()).isEqualTo("http://127.0.0.1:" + psp.port());
  }

  @Test
  void anUnknownHostFailsToStartWithAnUncheckedIoException() {
    assertThatThrownBy(
            () -> PspSimulator.start(PspSettings.defaults().withHost("no-such-host.invalid")))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("no-such-host.invalid");
  }

  @Test
  void aTakenPortFailsToStartWithAnUncheckedIoException() {
    assertThatThrownBy(() -> PspSimulator.start(PspSettings.defaults().withPort(psp.port())))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining(Integer.toString(psp.port()));
  }

  @Test
  void anUnknownPathIs404() {
    for (String path : new String[] {"/", "/v1", "/v1/charge", "/v1/stats/references/"}) {
      HttpResponse<String> response = client.get(path);

      assertThat(response.statusCode()).as(path).isEqualTo(404);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValue("application/problem+json");
      assertThat(PspClient.json(response).get("type").stringValue())
          .isEqualTo("https://once.dev/psp/problems/not-found");
    }
  }

  @Test
  void aWrongMethodIs405WithAllow() {
    assertAllowed(client.get("/v1/charges"), "POST");
    assertAllowed(client.get("/v1/refunds"), "POST");
    assertAllowed(client.post("/health", "k", "{}"), "GET");
    assertAllowed(client.post("/v1/stats", "k", "{}"), "GET");
    assertAllowed(client.post("/v1/stats/references/x", "k", "{}"), "GET");
    assertAllowed(
        client.send(HttpRequest.newBuilder(psp.baseUri().resolve("/v1/faults")).DELETE().build()),
        "GET, PUT");
  }

  private static void assertAllowed(HttpResponse<String> response, String allow) {
    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.headers().firstValue("Allow")).hasValue(allow);
    assertThat(PspClient.json(response).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/method-not-allowed");
  }
}
