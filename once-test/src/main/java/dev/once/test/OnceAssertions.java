package dev.once.test;

import dev.once.test.http.EndpointAssert;
import dev.once.test.http.HttpTarget;

/**
 * The kit's entry point, for static import: each method starts an assertion that proves one part of
 * an application idempotent and, when it is not, fails with every violation it found.
 */
public final class OnceAssertions {
  private OnceAssertions() {}

  /**
   * An assertion on the endpoint behind {@code target}: give it the request ({@link
   * EndpointAssert#withRequest}), then check it with {@link EndpointAssert#isIdempotent}.
   */
  public static EndpointAssert assertThatEndpoint(HttpTarget target) {
    return EndpointAssert.of(target);
  }
}
