package dev.once.test.http;

import java.net.URI;
import java.util.Objects;

/**
 * Where {@link EndpointAssert} sends its requests: a real server ({@link #baseUrl(String)}), or a
 * Spring test client ({@link MockMvcTarget}, {@link RestClientTarget}, {@link
 * WebTestClientTarget}). An adapter must give back every status as a {@link TestResponse}, never
 * throw for a 4xx or 5xx, and turn an exception the server-side stack threw at it (MockMvc rethrows
 * the handler's) into a 500, so the kit judges it as a 5xx.
 */
@FunctionalInterface
public interface HttpTarget {

  /**
   * Sends {@code request} (which already carries the {@code Idempotency-Key} the kit chose) and
   * returns its answer. An exception means the request could not be made at all (the server is not
   * there, a time-out) and ends the assertion.
   */
  TestResponse exchange(TestRequest request) throws Exception;

  /**
   * A real server at {@code baseUrl} (e.g. {@code http://localhost:8080}; a request's path is
   * appended to it), through the JDK's HttpClient, with a 30 s time-out per request.
   */
  static HttpTarget baseUrl(String baseUrl) {
    return baseUrl(URI.create(Objects.requireNonNull(baseUrl, "baseUrl")));
  }

  /** {@link #baseUrl(String)} from a URI. */
  static HttpTarget baseUrl(URI baseUrl) {
    return new JdkHttpTarget(Objects.requireNonNull(baseUrl, "baseUrl"));
  }
}
