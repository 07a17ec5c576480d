package dev.once.client;

import static dev.once.client.ScriptedServer.answer;
import static dev.once.client.ScriptedServer.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The retry rules, status by status and header by header, against a real HTTP server that answers a
 * scripted sequence. Waits are measured by the client's injected clock ({@link FakeTime}), which
 * moves only when the client sleeps on it: no test sleeps.
 */
@Timeout(30)
class OnceClientTest {
  private final ScriptedServer server = new ScriptedServer();
  private final FakeTime time = new FakeTime();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final ClientListener recorder =
      new ClientListener() {
        @Override
        public void attemptStarted(Call call, int attempt) {
          events.add("start " + attempt);
        }

        @Override
        public void attemptEnded(Call call, int attempt, Outcome outcome) {
          events.add(
              "end "
                  + attempt
                  + " "
                  + (outcome.answered() ? outcome.status() : outcome.exception()));
        }

        @Override
        public void retrying(Call call, int attempt, Duration delay, String reason) {
          events.add("retry " + attempt + " " + delay.toMillis() + " " + reason);
        }

        @Override
        public void gaveUp(Call call, GaveUpException e) {
          events.add("gave up " + e.attempts());
        }
      };

  private CallRetryPolicy policy =
      CallRetryPolicy.builder()
          .initialDelay(Duration.ofMillis(100))
          .maxDelay(Duration.ofSeconds(2))
          .maxAttempts(10)
          .deadline(Duration.ofSeconds(10))
          .build();

  @AfterEach
  void close() {
    server.close();
  }

  private OnceClient client() {
    return OnceClient.builder()
        .retry(policy)
        .listener(recorder)
        .clock(time.clock)
        .sleeper(time)
        .random(new SplittableRandom(1))
        .build();
  }

  private OnceRequest post() {
    return OnceRequest.post(server.uri("/charges")).json("{\"amount\":\"1.00\"}");
  }

  @Test
  void oneGeneratedKeyIsKeptForEveryAttemptOfACall() {
    server.then(answer(500), problem(503, "unavailable"), answer(201));

    OnceResponse r = client().send(post());

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.key())
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(server.keys()).containsExactly(r.key(), r.key(), r.key());
    assertThat(server.received).allMatch(x -> x.body().equals("{\"amount\":\"1.00\"}"));
  }

  @Test
  void theCallersKeyAndHeadersAreSentOnEveryAttempt() {
    server.then(answer(502), answer(200, "Idempotent-Replayed", "true"));

    OnceResponse r = client().send(post().key("order-42").header("traceparent", "00-abc"));

    assertThat(r.key()).isEqualTo("order-42");
    assertThat(r.replayed()).isTrue();
    assertThat(server.keys()).containsExactly("order-42", "order-42");
    assertThat(server.received)
        .allMatch(x -> List.of("00-abc").equals(x.headers().get("Traceparent")));
  }

  @Test
  void aNewCallGetsANewKey() {
    server.then(answer(201), answer(201));
    OnceClient client = client();

    String first = client.send(post()).key();
    String second = client.send(post()).key();

    assertThat(first).isNotEqualTo(second);
  }

  @ParameterizedTest
  @ValueSource(ints = {429, 503})
  void retryAfterDeltaSecondsIsWaitedByTheClientsClock(int status) {
    server.then(problem(status, "busy", "Retry-After", "3"), answer(201));

    OnceResponse r = client().send(post());

    assertThat(r.attempts()).isEqualTo(2);
    assertThat(time.sleeps).containsExactly(Duration.ofSeconds(3));
    assertThat(events)
        .containsExactly(
            "start 1",
            "end 1 " + status,
            "retry 1 3000 HTTP " + status + " busy, Retry-After 3 s",
            "start 2",
            "end 2 201");
  }

  @Test
  void retryAfterAsAnHttpDateIsWaitedUntilThatDate() {
    server.then(answer(503, "Retry-After", "Thu, 01 Jan 2026 00:00:04 GMT"), answer(201));

    client().send(post());

    assertThat(time.sleeps).containsExactly(Duration.ofSeconds(4));
  }

  @Test
  void aRetryAfterPastTheDeadlineGivesUpAtOnceWithoutSleeping() {
    server.then(problem(503, "unavailable", "Retry-After", "60"));

    assertThatThrownBy(() -> client().send(post().key("k-1")))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.lastStatus()).isEqualTo(503);
              assertThat(e.lastException()).isNull();
              assertThat(e.key()).isEqualTo("k-1");
              assertThat(e.elapsed()).isEqualTo(Duration.ZERO);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Gave up after 1 attempt in 0 ms (waiting 60000 ms (HTTP 503 unavailable,"
                          + " Retry-After 60 s) would pass the deadline PT10S); last: HTTP 503;"
                          + " Idempotency-Key k-1")
                  .doesNotContain("SECRET-BODY");
            });
    assertThat(time.sleeps).isEmpty();
    assertThat(events).endsWith("gave up 1");
  }

  @Test
  void theDeadlineEndsACallThatNeverGetsAnAnswer() {
    for (int i = 0; i < 20; i++) {
      server.then(answer(503, "Retry-After", "2"));
    }

    assertThatThrownBy(() -> client().send(post()))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              // attempts at 0, 2, 4, 6, 8 s; the next wait would end at the 10 s deadline
              assertThat(e.attempts()).isEqualTo(5);
              assertThat(e.elapsed()).isEqualTo(Duration.ofSeconds(8));
              assertThat(e.lastStatus()).isEqualTo(503);
            });
    assertThat(server.received).hasSize(5);
  }

  @Test
  void maxAttemptsEndsTheCall() {
    policy = policy.toBuilder().maxAttempts(3).build();
    server.then(answer(500), answer(500), answer(500), answer(201));

    assertThatThrownBy(() -> client().send(post()))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.getMessage()).contains("all 3 attempts used");
            });
    assertThat(server.received).hasSize(3);
  }

  @Test
  void backoffIsFullJitterUnderTheDoublingCeiling() {
    server.then(answer(500), answer(500), answer(500), answer(500), answer(201));

    client().send(post());

    assertThat(time.sleeps).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(time.sleeps.get(i)).isBetween(Duration.ZERO, Duration.ofMillis(100L << i));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 425, 500, 502, 504})
  void theseStatusesAreRetried(int status) {
    server.then(answer(status), answer(201));

    assertThat(client().send(post()).attempts()).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 415, 422})
  void noOther4xxIsEverRetried(int status) {
    server.then(problem(status, "invalid-request"), answer(201));

    OnceResponse r = client().send(post());

    assertThat(r.status()).isEqualTo(status);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(server.received).hasSize(1);
  }

  @Test
  void aConflictOfTheKeyInUseIsRetriedButAnotherConflictIsTheAnswer() {
    server.then(problem(409, "idempotency-key-in-use"), answer(201));
    assertThat(client().send(post()).attempts()).isEqualTo(2);

    server.then(problem(409, "product-exists"), answer(201));
    OnceResponse business = client().send(post());
    assertThat(business.status()).isEqualTo(409);
    assertThat(business.attempts()).isEqualTo(1);
  }

  @Test
  void aReusedKeyIsADistinctExceptionNamingTheKeyAndNeverRetried() {
    server.then(problem(422, "idempotency-key-reused"), answer(201));

    assertThatThrownBy(() -> client().send(post().key("pay-7")))
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class,
            e -> {
              assertThat(e.key()).isEqualTo("pay-7");
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.getMessage()).contains("pay-7").doesNotContain("SECRET-BODY");
            });
    assertThat(server.received).hasSize(1);
  }

  @Test
  void aPostWithoutAKeyIsNeverRetriedButAGetIs() {
    server.then(answer(503));
    OnceResponse post = client().send(post().withoutKey());
    assertThat(post.status()).isEqualTo(503);
    assertThat(post.attempts()).isEqualTo(1);
    assertThat(post.key()).isNull();
    assertThat(server.received.get(0).key()).isNull();

    server.then(answer(503), answer(200));
    OnceResponse get = client().send(OnceRequest.get(server.uri("/charges/1")));
    assertThat(get.status()).isEqualTo(200);
    assertThat(get.attempts()).isEqualTo(2);
    assertThat(get.key()).as("a safe method needs no key").isNull();
  }

  @Test
  void aConnectionErrorIsRetriedUntilGivenUpWithItsClass() throws Exception {
    URI closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/x");
    }
    policy = policy.toBuilder().maxAttempts(3).build();

    assertThatThrownBy(() -> client().send(OnceRequest.post(closed).json("{}")))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.lastStatus()).isEqualTo(-1);
              assertThat(e.lastException()).isEqualTo(ConnectException.class.getName());
              assertThat(e.getCause()).isInstanceOf(ConnectException.class);
            });
  }

  @Test
  void aConnectionErrorWithoutAKeyIsNotRetried() throws Exception {
    URI closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/x");
    }

    assertThatThrownBy(() -> client().send(OnceRequest.post(closed).json("{}").withoutKey()))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.getMessage()).contains("not retried: POST without an Idempotency-Key");
            });
  }

  @Test
  void anAttemptThatTimesOutIsRetriedUnderTheSameKey() {
    // Long enough that a busy machine still delivers the second attempt before it times out.
    policy = policy.toBuilder().attemptTimeout(Duration.ofSeconds(2)).build();
    server.then(ScriptedServer.hang(), answer(201));

    OnceResponse r;
    try {
      r = client().send(post());
    } catch (GaveUpException e) {
      throw new AssertionError(events + " " + server.received, e);
    }

    assertThat(r.attempts()).isEqualTo(2);
    assertThat(server.keys()).containsExactly(r.key(), r.key());
    assertThat(events.get(1)).isEqualTo("end 1 " + HttpTimeoutException.class.getName());
  }

  @Test
  void eachAttemptsTimeoutIsCappedByWhatIsLeftOfTheDeadline() {
    policy = policy.toBuilder().attemptTimeout(Duration.ofSeconds(8)).build();
    List<Duration> timeouts = new CopyOnWriteArrayList<>();
    Retrier retrier = Retrier.builder().policy(policy).clock(time.clock).sleeper(time).build();

    retrier.run(
        "POST",
        server.uri("/"),
        "k",
        timeout -> {
          timeouts.add(timeout);
          return timeouts.size() < 3
              ? new Exchange.Reply<>(503, "3", null, "busy")
              : new Exchange.Reply<>(201, null, null, "done");
        });

    assertThat(timeouts)
        .containsExactly(Duration.ofSeconds(8), Duration.ofSeconds(7), Duration.ofSeconds(4));
  }

  @Test
  void anInterruptStopsTheCallAndKeepsTheFlag() {
    server.then(answer(503), answer(201));
    OnceClient client =
        OnceClient.builder()
            .retry(policy)
            .clock(time.clock)
            .sleeper(
                d -> {
                  throw new InterruptedException();
                })
            .build();

    try {
      assertThatThrownBy(() -> client.send(post()))
          .isInstanceOf(CallInterruptedException.class)
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(server.received).hasSize(1);
  }

  @Test
  void aKeyMustBeVisibleAscii() {
    assertThatThrownBy(() -> post().key("with space"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("with space");
    assertThatThrownBy(() -> post().header("Idempotency-Key", "k"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
