package dev.once.psp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP/1.1 client for a simulator, as a merchant would call it. */
final class PspClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final URI base;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  PspClient(PspSimulator simulator) {
    this(simulator.baseUri());
  }

  PspClient(URI base) {
    this.base = base;
  }

  HttpResponse<String> charge(String key, String reference, String amount) {
    return post(
        "/v1/charges",
        key,
        "{\"reference\":\"" + reference + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
  }

  HttpResponse<String> refund(String key, String reference, String charge, String amount) {
    return post(
        "/v1/refunds",
        key,
        "{\"reference\":\""
            + reference
            + "\",\"charge\":\""
            + charge
            + "\",\"amount\":\""
            + amount
            + "\",\"currency\":\"EUR\"}");
  }

  HttpResponse<String> post(String path, String key, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return send(request.build());
  }

  /** Like {@link #post} but lets the caller see an IOException (a lost answer). */
  HttpResponse<String> postOrThrow(String path, String key, String body) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(base.resolve(path)).GET().build());
  }

  HttpResponse<String> put(String path, String body) {
    return send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("request failed: " + request, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static JsonNode json(HttpResponse<String> response) {
    return json(response.body());
  }

  static JsonNode json(String body) {
    return JSON.readTree(body);
  }

  static String charge(String reference, String amount) {
    return "{\"reference\":\""
        + reference
        + "\",\"amount\":\""
        + amount
        + "\",\"currency\":\"EUR\"}";
  }
}
