package dev.once.client;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** {@link OnceClient} on the JDK's {@link HttpClient}: each attempt is one {@code send}. */
final class JdkOnceClient implements OnceClient {
  private final HttpClient http;
  private final Retrier retrier;

  JdkOnceClient(HttpClient http, Retrier retrier) {
    this.http = http;
    this.retrier = retrier;
  }

  @Override
  public CallRetryPolicy policy() {
    return retrier.policy();
  }

  @Override
  public OnceResponse send(OnceRequest request) {
    String key = retrier.keyFor(request.method(), request.key(), request.isWithoutKey());
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri());
    for (Map.Entry<String, String> h : request.headers()) {
      builder.header(h.getKey(), h.getValue());
    }
    if (key != null) {
      builder.header("Idempotency-Key", key);
    }
    byte[] body = request.bodyBytes();
    builder.method(
        request.method(),
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    Retrier.Completed<HttpResponse<byte[]>> done =
        retrier.run(
            request.method(),
            request.uri(),
            key,
            timeout -> {
              HttpResponse<byte[]> r =
                  http.send(
                      builder.timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray());
              return new Exchange.Reply<>(
                  r.statusCode(),
                  r.headers().firstValue("Retry-After").orElse(null),
                  ProblemType.of(r.headers().firstValue("Content-Type").orElse(null), r.body()),
                  r);
            });
    HttpResponse<byte[]> r = done.response();
    return new OnceResponse(r.statusCode(), r.headers(), r.body(), done.attempts(), key);
  }
}
