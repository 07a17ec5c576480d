package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With {@code once.idempotency.http.paths} at its default (empty) and no handler marked {@link
 * Idempotent}, no endpoint needs a key: the filter passes every request on and records nothing.
 */
@SpringBootTest(
    classes = FilterTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.idempotency.http.paths=",
      // A context of its own: a small pool, closed after the class, leaves the test server's
      // connections to the others.
      "spring.datasource.hikari.maximum-pool-size=4"
    })
@DirtiesContext
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DefaultEndpointsTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;

  private final String client = "client-" + UUID.randomUUID();

  private HttpResponse<String> post(String path, String key) {
    return FilterRequests.send(FilterRequests.post(port, client, path, key, "{}"));
  }

  private long keysOfClient() {
    return FilterRequests.keysOf(jdbc, client);
  }

  @Test
  void nothingNeedsAKeyByDefault() {
    String tag = "t" + UUID.randomUUID().toString().replace("-", "");
    assertThat(post("/api/effects/" + tag, null).statusCode()).isEqualTo(201);
    HttpResponse<String> keyed = post("/api/effects/" + tag, "k-1");
    HttpResponse<String> again = post("/api/effects/" + tag, "k-1");

    assertThat(keyed.statusCode()).isEqualTo(201);
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.headers().firstValue(KeyedHttpRequests.REPLAYED_HEADER)).isEmpty();
    assertThat(FilterRequests.effects(jdbc, tag)).isEqualTo(3);
    assertThat(keysOfClient()).isZero();
  }

  @Test
  void anUnknownPathIsNotFound() {
    assertThat(post("/api/nothing/here", null).statusCode()).isEqualTo(404);
    assertThat(keysOfClient()).isZero();
  }
}
