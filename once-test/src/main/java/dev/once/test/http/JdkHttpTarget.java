package dev.once.test.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** {@link HttpTarget#baseUrl(URI)}: real HTTP through the JDK's client. */
final class JdkHttpTarget implements HttpTarget {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String baseUrl;
  private final HttpClient client;

  JdkHttpTarget(URI baseUrl) {
    if (!baseUrl.isAbsolute()) {
      throw new IllegalArgumentException("the base URL must be absolute: " + baseUrl);
    }
    String text = baseUrl.toString();
    this.baseUrl = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
  }

  @Override
  public TestResponse exchange(TestRequest request) throws Exception {
    byte[] body = request.body();
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + request.path()))
            .timeout(TIMEOUT)
            .method(
                request.method(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    request.headers().forEach((name, values) -> values.forEach(v -> builder.header(name, v)));
    if (request.contentType() != null) {
      builder.header("Content-Type", request.contentType());
    }
    HttpResponse<byte[]> response =
        client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new TestResponse(response.statusCode(), response.headers().map(), response.body());
  }

  @Override
  public String toString() {
    return "HttpTarget.baseUrl(" + baseUrl + ")";
  }
}
