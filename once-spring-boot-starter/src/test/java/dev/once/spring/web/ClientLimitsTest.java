package dev.once.spring.web;

import static dev.once.spring.web.FilterRequests.assertProblem;
import static dev.once.spring.web.FilterRequests.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.spring.OnceProperties;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code once.idempotency.limits}, end to end through a real server and a real database: a client
 * over its caps gets 429 with {@code Retry-After} before its key is claimed (nothing executes, the
 * key stays free, other clients are not counted), and a success too large to store is undone and
 * refused before it commits. The clock stands still, so buckets refill only when a test says so.
 */
@SpringBootTest(
    classes = FilterTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.idempotency.limits.max-in-flight-per-client=1",
      "once.idempotency.limits.new-keys-per-minute=3",
      "once.idempotency.limits.max-answer-size=" + ClientLimitsTest.MAX_ANSWER + "B"
    })
class ClientLimitsTest {
  static final int MAX_ANSWER = 120;

  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  /** Caps on a clock that stands still: no bucket refills during a test. */
  @TestConfiguration(proxyBeanMethods = false)
  static class StillClock {
    @Bean
    ClientCaps stillClientCaps(OnceProperties once) {
      OnceProperties.Limits limits = once.idempotency().limits();
      return new ClientCaps(
          limits.maxInFlightPerClient(),
          limits.newKeysPerMinute(),
          once.idempotency().retryAfter(),
          Clock.fixed(Instant.now(), ZoneOffset.UTC));
    }
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;

  @Test
  void aClientOverItsInFlightCapGets429AndItsKeyStaysFree() throws Exception {
    String client = client();
    String held = tag();
    CountDownLatch entered = new CountDownLatch(1);
    FilterTestApplication.ENTERED.put(held, entered);
    FilterTestApplication.RELEASE.put(held, new CountDownLatch(1));
    CompletableFuture<HttpResponse<String>> first =
        CompletableFuture.supplyAsync(() -> send(post(client, held, "k-1")), THREADS);
    assertThat(entered.await(60, TimeUnit.SECONDS)).as("the first request in its handler").isTrue();

    String refusedTag = tag();
    HttpResponse<String> refused = send(post(client, refusedTag, "k-2"));
    HttpResponse<String> otherClient = send(post(client(), tag(), "k-2"));
    FilterTestApplication.RELEASE.get(held).countDown();

    assertProblem(refused, 429, "too-many-requests-in-flight");
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(otherClient.statusCode()).isEqualTo(201);
    assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    assertThat(effects(refusedTag)).isZero();
    assertThat(storedKeys(client, "k-2")).isZero();

    HttpResponse<String> retry = send(post(client, refusedTag, "k-2"));
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(effects(refusedTag)).isEqualTo(1);
  }

  @Test
  void aClientOverItsNewKeysPerMinuteGets429AndReplaysCostNoKey() {
    String client = client();
    String tag = tag();
    assertThat(send(post(client, tag, "n-1")).statusCode()).isEqualTo(201);
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> replay = send(post(client, tag, "n-1"));
      assertThat(replay.statusCode()).isEqualTo(201);
      assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }
    assertThat(send(post(client, tag, "n-2")).statusCode()).isEqualTo(201);
    assertThat(send(post(client, tag, "n-3")).statusCode()).isEqualTo(201);

    String refusedTag = tag();
    HttpResponse<String> refused = send(post(client, refusedTag, "n-4"));
    assertProblem(refused, 429, "too-many-new-keys");
    // 3 keys a minute: the next one in 20 s (the clock stands still).
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("20");
    assertThat(effects(refusedTag)).isZero();
    assertThat(storedKeys(client, "n-4")).isZero();
    assertThat(effects(tag)).isEqualTo(3);

    assertThat(send(post(client(), tag(), "n-4")).statusCode()).isEqualTo(201);
  }

  @Test
  void aSuccessTooLargeToStoreIsUndoneAndRefusedWithItsKeyFree() {
    String client = client();
    // The handler answers {"id":"<uuid>","tag":"<tag>"}: past the limit with a long tag.
    String large = tag() + "x".repeat(MAX_ANSWER);
    HttpResponse<String> refused = send(post(client, large, "a-1"));

    assertProblem(refused, 422, "answer-too-large");
    assertThat(refused.headers().firstValue("Location")).isEmpty();
    assertThat(refused.body()).contains(MAX_ANSWER + " bytes");
    assertThat(effects(large)).isZero();
    assertThat(storedKeys(client, "a-1")).isZero();

    String small = tag();
    HttpResponse<String> corrected = send(post(client, small, "a-1"));
    assertThat(corrected.statusCode()).isEqualTo(201);
    assertThat(corrected.body().length()).isLessThanOrEqualTo(MAX_ANSWER);
    assertThat(effects(small)).isEqualTo(1);
    assertThat(storedKeys(client, "a-1")).isEqualTo(1);
  }

  private HttpRequest.Builder post(String client, String tag, String key) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/effects/" + tag))
        .timeout(java.time.Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .header("X-Client", client)
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString("{}"));
  }

  private static String client() {
    return "client-" + UUID.randomUUID();
  }

  private static String tag() {
    return "t" + UUID.randomUUID().toString().replace("-", "");
  }

  private long effects(String tag) {
    return FilterRequests.effects(jdbc, tag);
  }

  private long storedKeys(String client, String key) {
    return FilterRequests.storedKeys(jdbc, client, key);
  }
}
