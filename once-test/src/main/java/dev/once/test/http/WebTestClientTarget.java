package dev.once.test.http;

import dev.once.test.faults.InjectedFault;
import java.util.Objects;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Spring's {@link WebTestClient} as a {@link HttpTarget}, bound to a server ({@code
 * WebTestClient.bindToServer()}) or to MockMvc ({@code MockMvcWebTestClient}); every status comes
 * back as a {@link TestResponse}. When it is bound to MockMvc, an exception the server-side stack
 * threw becomes a 500.
 */
public final class WebTestClientTarget implements HttpTarget {
  private final WebTestClient client;

  private WebTestClientTarget(WebTestClient client) {
    this.client = client;
  }

  /** Requests through {@code client}; a request's path is resolved against its base URL. */
  public static WebTestClientTarget of(WebTestClient client) {
    return new WebTestClientTarget(Objects.requireNonNull(client, "client"));
  }

  @Override
  public TestResponse exchange(TestRequest request) {
    WebTestClient.RequestBodySpec spec =
        client
            .method(HttpMethod.valueOf(request.method()))
            .uri(request.path())
            .headers(headers -> request.headers().forEach(headers::addAll));
    if (request.contentType() != null) {
      spec = spec.contentType(MediaType.parseMediaType(request.contentType()));
    }
    byte[] body = request.body();
    EntityExchangeResult<byte[]> result;
    try {
      result =
          (body.length > 0 ? spec.bodyValue(body) : spec).exchange().expectBody().returnResult();
    } catch (RuntimeException e) {
      if (thrownByServletStack(e)) {
        return TestResponse.serverFailure();
      }
      throw e;
    }
    return new TestResponse(
        result.getStatus().value(),
        RestClientTarget.headersOf(result.getResponseHeaders()),
        result.getResponseBody());
  }

  /**
   * Whether a servlet stack (MockMvc) threw {@code e}: a ServletException or an injected fault in
   * its causes.
   */
  private static boolean thrownByServletStack(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof InjectedFault
          || cause.getClass().getName().equals("jakarta.servlet.ServletException")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "WebTestClientTarget";
  }
}
