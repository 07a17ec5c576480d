package dev.once.test.http;

import static dev.once.test.OnceAssertions.assertThatEndpoint;

import dev.once.test.faults.OnceTestFaults;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.client.MockMvcWebTestClient;
import org.springframework.web.client.RestClient;

/**
 * A correct endpoint on Once's starter (its insert joins Once's transaction) passes every check of
 * {@link EndpointAssert}, fault hooks included, through each adapter.
 */
@Import(OnceTestFaults.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AdaptersTest extends EndpointApplicationTest {

  private TestRequest payment() {
    return TestRequest.post("/once/effects/" + tag)
        .json("{\"amount\":\"12.50\",\"currency\":\"EUR\"}");
  }

  @Test
  void throughTheBaseUrlOfARealServer() {
    assertThatEndpoint(HttpTarget.baseUrl(baseUrl())).withRequest(payment()).isIdempotent(rows());
  }

  @Test
  void throughMockMvc() {
    assertThatEndpoint(MockMvcTarget.of(mockMvc())).withRequest(payment()).isIdempotent(rows());
  }

  @Test
  void throughRestClient() {
    RestClient client = RestClient.builder().baseUrl(baseUrl()).build();
    assertThatEndpoint(RestClientTarget.of(client)).withRequest(payment()).isIdempotent(rows());
  }

  @Test
  void throughWebTestClient() {
    WebTestClient client =
        WebTestClient.bindToServer()
            .baseUrl(baseUrl())
            .responseTimeout(Duration.ofSeconds(30))
            .build();
    assertThatEndpoint(WebTestClientTarget.of(client))
        .withRequest(payment())
        .concurrency(16)
        .isIdempotent(rows());
  }

  /** Bound to MockMvc, the faults' exceptions come back as 500s, as from a server. */
  @Test
  void throughWebTestClientOnMockMvc() {
    WebTestClient client = MockMvcWebTestClient.bindTo(mockMvc()).build();
    assertThatEndpoint(WebTestClientTarget.of(client)).withRequest(payment()).isIdempotent(rows());
  }

  @Test
  void withAFreshRequestPerCheck() {
    int[] made = {0};
    assertThatEndpoint(HttpTarget.baseUrl(baseUrl()))
        .withRequests(() -> payment().json("{\"order\":" + (++made[0]) + "}"))
        .isIdempotent(rows());
  }
}
