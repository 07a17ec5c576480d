package dev.once.test.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

/**
 * Spring's {@link RestClient} (built with the server's base URL) as a {@link HttpTarget}: every
 * status comes back as a {@link TestResponse}, none is thrown as an exception.
 */
public final class RestClientTarget implements HttpTarget {
  private final RestClient client;

  private RestClientTarget(RestClient client) {
    this.client = client;
  }

  /** Requests through {@code client}; a request's path is resolved against its base URL. */
  public static RestClientTarget of(RestClient client) {
    return new RestClientTarget(Objects.requireNonNull(client, "client"));
  }

  @Override
  public TestResponse exchange(TestRequest request) {
    RestClient.RequestBodySpec spec =
        client
            .method(HttpMethod.valueOf(request.method()))
            .uri(request.path())
            .headers(headers -> request.headers().forEach(headers::addAll));
    if (request.contentType() != null) {
      spec = spec.contentType(MediaType.parseMediaType(request.contentType()));
    }
    byte[] body = request.body();
    if (body.length > 0) {
      spec = spec.body(body);
    }
    return spec.exchange(
        (sent, response) ->
            new TestResponse(
                response.getStatusCode().value(),
                headersOf(response.getHeaders()),
                response.getBody().readAllBytes()));
  }

  static Map<String, List<String>> headersOf(HttpHeaders headers) {
    Map<String, List<String>> all = new LinkedHashMap<>();
    headers.forEach(all::put);
    return all;
  }

  @Override
  public String toString() {
    return "RestClientTarget";
  }
}
