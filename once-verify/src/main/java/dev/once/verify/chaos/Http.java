package dev.once.verify.chaos;

import dev.once.client.Exchange;
import dev.once.client.ProblemType;
import dev.once.client.Retrier;
import dev.once.verify.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Small JSON-over-HTTP helper: one java.net.http client, answers as status and body text. Given
 * several base URLs (shop instances behind no load balancer) it sends each request to the next one
 * in turn, so a retry usually reaches another instance than its first try, as behind a balancer.
 * {@link #call} sends one call through once-client's {@link Retrier}: every attempt under the
 * call's key, each to the next instance.
 */
final class Http {
  /** An answer: its status, body, and the replay and Retry-After headers. */
  record Answer(int status, String body, boolean replayed, int retryAfterSeconds) {
    /** Whether status and body equal {@code other}'s (the replay header aside). */
    boolean sameAs(Answer other) {
      return other != null && status == other.status && body.equals(other.body);
    }

    /** The problem slug of a problem answer, or null. */
    String slug() {
      String type = Http.field(body, "type");
      return type == null ? null : type.substring(type.lastIndexOf('/') + 1);
    }
  }

  private final HttpClient client;
  private final List<String> bases;
  private final AtomicInteger next = new AtomicInteger();
  private final Duration timeout;

  Http(String base, Duration timeout) {
    this(List.of(base), timeout);
  }

  Http(List<String> bases, Duration timeout) {
    if (bases.isEmpty()) {
      throw new IllegalArgumentException("no base URL");
    }
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    this.bases = List.copyOf(bases);
    this.timeout = timeout;
  }

  /** Each attempt's time-out. */
  Duration timeout() {
    return timeout;
  }

  Answer post(String path, String bearer, String key, String body)
      throws IOException, InterruptedException {
    return send(request(path, bearer, key, body, timeout));
  }

  Answer put(String path, String body) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(uri(path))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  Answer get(String path, String bearer) throws IOException, InterruptedException {
    return send(request(path, bearer, null, null, timeout));
  }

  /**
   * A request to the next instance: a POST of {@code body} (JSON), or a GET when {@code body} is
   * null; with the bearer token and the key when they are not null.
   */
  private HttpRequest request(
      String path, String bearer, String key, String body, Duration attemptTimeout) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(attemptTimeout);
    if (body == null) {
      b.GET();
    } else {
      b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return b.build();
  }

  private URI uri(String path) {
    int i = bases.size() == 1 ? 0 : Math.floorMod(next.getAndIncrement(), bases.size());
    return URI.create(bases.get(i) + path);
  }

  /**
   * One call through {@code retrier} (its rules, deadline and listener): {@code key} on every
   * attempt, a GET when {@code key} is null, else a POST of {@code body}; each attempt to the next
   * instance, and {@code seen} sees each attempt's answer (for the 5xx samples).
   *
   * @throws dev.once.client.OnceClientException as {@link Retrier#run} does
   */
  Answer call(
      Retrier retrier, String path, String bearer, String key, String body, Consumer<Answer> seen) {
    String method = key == null ? "GET" : "POST";
    Exchange<Answer> attempt =
        timeout -> {
          HttpResponse<String> r =
              client.send(
                  request(path, bearer, key, key == null ? null : body, timeout),
                  HttpResponse.BodyHandlers.ofString());
          Answer a = answer(r);
          seen.accept(a);
          return new Exchange.Reply<>(
              r.statusCode(),
              r.headers().firstValue("Retry-After").orElse(null),
              ProblemType.of(
                  r.headers().firstValue("Content-Type").orElse(null),
                  r.body().getBytes(StandardCharsets.UTF_8)),
              a);
        };
    return retrier.run(method, URI.create(bases.get(0) + path), key, attempt).response();
  }

  private Answer send(HttpRequest request) throws IOException, InterruptedException {
    return answer(client.send(request, HttpResponse.BodyHandlers.ofString()));
  }

  private static Answer answer(HttpResponse<String> r) {
    boolean replayed = r.headers().firstValue("Idempotent-Replayed").isPresent();
    int retryAfter = 1;
    try {
      retryAfter = Integer.parseInt(r.headers().firstValue("Retry-After").orElse("1").trim());
    } catch (NumberFormatException e) {
      // keep 1
    }
    return new Answer(r.statusCode(), r.body(), replayed, retryAfter);
  }

  /** The string value of the top-level member {@code name} of a JSON text, or null. */
  static String field(String json, String name) {
    return Json.string(json, name);
  }

  /** The number value of the top-level member {@code name} of a JSON text, as text, or null. */
  static String number(String json, String name) {
    return Json.number(json, name);
  }
}
