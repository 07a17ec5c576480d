package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** What the filter's end-to-end tests send and check: requests, problems, effects, stored keys. */
final class FilterRequests {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FilterRequests() {}

  /** A JSON POST of {@code client}, with {@code key} unless it is null. */
  static HttpRequest.Builder post(int port, String client, String path, String key, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .header("Content-Type", "application/json")
            .header("X-Client", client)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return b;
  }

  static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The handler's effects recorded under {@code tag}. */
  static long effects(JdbcClient jdbc, String tag) {
    return jdbc.sql("SELECT count(*) FROM effect WHERE tag = ?")
        .param(tag)
        .query(Long.class)
        .single();
  }

  /** Rows of {@code key} of {@code client} in Once's table. */
  static long storedKeys(JdbcClient jdbc, String client, String key) {
    return jdbc.sql(
            "SELECT count(*) FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?")
        .param(client)
        .param(key)
        .query(Long.class)
        .single();
  }

  /** Every key of {@code client} in Once's table. */
  static long keysOf(JdbcClient jdbc, String client) {
    return jdbc.sql("SELECT count(*) FROM once.idempotency_key WHERE client_id = ?")
        .param(client)
        .query(Long.class)
        .single();
  }

  /** How long the key is kept after its answer: its row's {@code expires_at - completed_at}. */
  static Duration storedRetention(JdbcClient jdbc, String client, String key) {
    long micros =
        jdbc.sql(
                "SELECT (extract(epoch FROM expires_at - completed_at) * 1000000)::bigint"
                    + " FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?")
            .param(client)
            .param(key)
            .query(Long.class)
            .single();
    return Duration.ofNanos(micros * 1000);
  }

  static void assertProblem(HttpResponse<String> r, int status, String slug) {
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(r.body()).contains("\"type\":\"https://once.dev/problems/" + slug + "\"");
    assertThat(r.body()).doesNotContain("Exception").doesNotContain("at dev.");
  }
}
