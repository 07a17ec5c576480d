package dev.once.shop.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The benchmarks' set-up requests: a JSON POST that must answer 201, and its body. */
final class BenchHttp {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private BenchHttp() {}

  /**
   * POSTs {@code body} to {@code base + path} with the bearer token and, unless null, the key.
   *
   * @throws IllegalStateException if the answer is not 201
   */
  static JsonNode post(
      HttpClient http, String base, String path, String bearer, String key, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + bearer)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 201) {
      throw new IllegalStateException(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }
}
