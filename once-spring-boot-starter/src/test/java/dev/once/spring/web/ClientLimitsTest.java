package dev.once.spring.web;

import static dev.once.spring.web.FilterRequests.assertProblem;
import static dev.once.spring.web.FilterRequests.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.spring.OnceProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code once.idempotency.limits}, end to end through a real server and a real database: a client
 * over its caps gets 429 with {@code Retry-After} before its key is claimed (nothing executes, the
 * key stays free, other clients are not counted), and a success too large to store is undone and
 * refused before it commits. The clock stands still, so buckets refill only when a test says so.
 */
@Import(ClientLimitsTest.AnswerWatch.class)
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

  /**
   * Idempotency-Key -> the requests its client had in flight when the first byte of the answer's
   * body was written, as a filter before Once's sees it.
   */
  static final Map<String, List<Integer>> IN_FLIGHT_AT_ANSWER = new ConcurrentHashMap<>();

  /** Records {@link #IN_FLIGHT_AT_ANSWER}: wraps the response before Once's filter does. */
  @TestConfiguration(proxyBeanMethods = false)
  static class AnswerWatch {
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> inFlightAtAnswer(ClientCaps caps) {
      OncePerRequestFilter filter =
          new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(
                HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
              String client = request.getHeader("X-Client");
              String key = request.getHeader("Idempotency-Key");
              chain.doFilter(
                  request,
                  new HttpServletResponseWrapper(response) {
                    private boolean seen;

                    @Override
                    public ServletOutputStream getOutputStream() throws IOException {
                      ServletOutputStream out = super.getOutputStream();
                      return new ServletOutputStream() {
                        @Override
                        public void write(int b) throws IOException {
                          seen();
                          out.write(b);
                        }

                        @Override
                        public void write(byte[] b, int off, int len) throws IOException {
                          seen();
                          out.write(b, off, len);
                        }

                        @Override
                        public boolean isReady() {
                          return out.isReady();
                        }

                        @Override
                        public void setWriteListener(WriteListener listener) {
                          out.setWriteListener(listener);
                        }
                      };
                    }

                    /** The first byte of the body: the requests in flight now. */
                    private void seen() {
                      if (!seen && client != null && key != null) {
                        seen = true;
                        IN_FLIGHT_AT_ANSWER
                            .computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                            .add(caps.inFlight(client));
                      }
                    }
                  });
            }
          };
      FilterRegistrationBean<OncePerRequestFilter> registration =
          new FilterRegistrationBean<>(filter);
      registration.setOrder(-10); // before Once's filter (order 0), after the fake authentication
      return registration;
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

  /**
   * The container may send an answer as soon as its last byte is written, before the request's
   * thread leaves Once's filter: the request must be out of flight by then, or a client that sends
   * its next request as soon as it has an answer is refused {@code too-many-requests-in-flight} by
   * its own finished request.
   */
  @Test
  void aRequestIsNoLongerInFlightWhenItsAnswerIsWritten() {
    String client = client();
    String tag = tag();
    assertThat(send(post(client, tag, "w-1")).statusCode()).isEqualTo(201);
    HttpResponse<String> replay = send(post(client, tag, "w-1"));
    assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(send(post(client, tag(), "w-2")).statusCode()).isEqualTo(201);

    assertThat(IN_FLIGHT_AT_ANSWER)
        .as("requests in flight while the answer was written: executed, replayed, executed")
        .containsEntry("w-1", List.of(0, 0))
        .containsEntry("w-2", List.of(0));
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
