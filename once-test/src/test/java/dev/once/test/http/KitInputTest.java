package dev.once.test.http;

import static dev.once.test.OnceAssertions.assertThatEndpoint;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Wrong input to the kit itself is refused at once, with a message that says what is wrong. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KitInputTest {
  private final HttpTarget unreachable =
      request -> {
        throw new AssertionError("no request may be sent");
      };

  @Test
  void aNullTargetRequestOrEffectIsRefused() {
    assertThatThrownBy(() -> assertThatEndpoint(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("target must not be null");
    assertThatThrownBy(() -> assertThatEndpoint(unreachable).withRequest(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("request must not be null");
    assertThatThrownBy(
            () ->
                assertThatEndpoint(unreachable)
                    .withRequest(TestRequest.post("/p"))
                    .isIdempotent(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("effect must not be null");
  }

  @Test
  void concurrencyOutsideTwoToSixtyFourIsRefused() {
    EndpointAssert endpoint = assertThatEndpoint(unreachable);
    assertThatThrownBy(() -> endpoint.concurrency(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("concurrency must be between 2 and 64, was 1");
    assertThatThrownBy(() -> endpoint.concurrency(65))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("concurrency must be between 2 and 64, was 65");
  }

  @Test
  void anAssertionWithoutARequestIsRefused() {
    assertThatThrownBy(() -> assertThatEndpoint(unreachable).isIdempotent(() -> 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("call withRequest(...) or withRequests(...)");
    assertThatThrownBy(
            () -> assertThatEndpoint(unreachable).withRequests(() -> null).isIdempotent(() -> 0))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("the request supplier given to withRequests returned null");
  }

  @Test
  void aPathMustBeAbsolute() {
    assertThatThrownBy(() -> TestRequest.post("v1/payments"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the path must start with '/': v1/payments");
  }

  @Test
  void theOtherBodyDiffersFromTheRequestsInItsOwnMediaType() {
    assertThat(text(TestRequest.post("/p").json(" {\"a\":1} ")))
        .matches("\\{\"onceTestOtherBody\":\"[0-9a-f-]{36}\",\"a\":1}");
    assertThat(text(TestRequest.post("/p").json("{}")))
        .matches("\\{\"onceTestOtherBody\":\"[0-9a-f-]{36}\"}");
    assertThat(text(TestRequest.post("/p").json("[1,2]")))
        .isEqualTo("{\"onceTestOtherBody\":[1,2]}");
    assertThat(text(TestRequest.post("/p").body("abc".getBytes(UTF_8), "text/plain")))
        .isEqualTo("abc ");
    TestRequest none = EndpointAssert.otherBodyOf(TestRequest.delete("/p"));
    assertThat(none.contentType()).isEqualTo("application/json");
    assertThat(new String(none.body(), UTF_8)).startsWith("{\"onceTestOtherBody\":");
  }

  @Test
  void aRequestNeverShowsItsCredentials() {
    TestRequest request = TestRequest.post("/p").bearer("secret-token").header("X-A", "1");
    assertThat(request.toString()).doesNotContain("secret-token").contains("Authorization");
    assertThat(request.header("authorization")).isEqualTo("Bearer secret-token");
    assertThat(request.withoutHeader("AUTHORIZATION").header("Authorization")).isNull();
  }

  private static String text(TestRequest request) {
    return new String(EndpointAssert.otherBodyOf(request).body(), UTF_8);
  }
}
