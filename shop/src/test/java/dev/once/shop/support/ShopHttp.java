package dev.once.shop.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * A small HTTP client for the shop under test: real requests over the loopback interface. Every
 * answer is checked against the shop's OpenAPI description ({@link OpenApiContract}).
 */
public final class ShopHttp {
  /** Media type of JSON request bodies. */
  public static final String JSON = "application/json";

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private final int port;
  private final String base;
  private final String adminToken;

  public ShopHttp(int port, String adminToken) {
    this.port = port;
    this.base = "http://localhost:" + port;
    this.adminToken = adminToken;
  }

  /** A new unique Idempotency-Key. */
  public static String newKey() {
    return UUID.randomUUID().toString();
  }

  /** An idempotent JSON POST with a fresh key, as a well-behaved client sends it. */
  public ShopResponse post(String path, String apiKey, String json) {
    return post(path, apiKey, newKey(), json);
  }

  /** A JSON POST with the given key. */
  public ShopResponse post(String path, String apiKey, String idempotencyKey, String json) {
    return send(
        request(path)
            .header("Authorization", "Bearer " + apiKey)
            .header("Idempotency-Key", idempotencyKey)
            .header("Content-Type", JSON)
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
  }

  /** A GET with the API key. */
  public ShopResponse get(String path, String apiKey) {
    return send(request(path).header("Authorization", "Bearer " + apiKey).GET());
  }

  /** A JSON POST to the admin API with the admin token. */
  public ShopResponse admin(String path, String json) {
    return send(
        request(path)
            .header("Authorization", "Bearer " + adminToken)
            .header("Content-Type", JSON)
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
  }

  /** A GET of the admin API with the admin token. */
  public ShopResponse adminGet(String path) {
    return send(request(path).header("Authorization", "Bearer " + adminToken).GET());
  }

  /** A request builder for {@code path}, to add anything unusual (headers, methods, bodies). */
  public HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
  }

  /**
   * Sends a request built with {@link #request}; fails with an {@link AssertionError} when the
   * answer does not conform to the shop's OpenAPI description.
   */
  public ShopResponse send(HttpRequest.Builder request) {
    try {
      HttpRequest built = request.build();
      HttpResponse<String> response =
          CLIENT.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      ShopResponse answer =
          new ShopResponse(response.statusCode(), response.headers(), response.body());
      URI uri = built.uri();
      String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
      OpenApiContract.of(port).assertConforms(built.method(), target, answer);
      return answer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
