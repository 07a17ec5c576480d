package dev.once.spring.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.client.CallRetryPolicy;
import dev.once.client.ClientListener;
import dev.once.client.GaveUpException;
import dev.once.client.IdempotencyKeyReusedException;
import dev.once.client.Retrier;
import dev.once.psp.Faults;
import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import dev.once.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * The interceptor on a real {@code RestClient} against the psp-simulator and its faults: one key
 * per call on every attempt, once-client's rules (retried or not, Retry-After by the injected
 * clock, the deadline), its exceptions unwrapped. The simulator's counters show the effects.
 */
@Timeout(60)
class OnceRetryInterceptorTest {
  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<Duration> waits = new CopyOnWriteArrayList<>();
  private final List<Integer> statuses = new CopyOnWriteArrayList<>();
  private CallRetryPolicy policy =
      CallRetryPolicy.builder().maxAttempts(10).deadline(Duration.ofSeconds(10)).build();
  private Runnable whileWaiting = () -> {};

  @AfterEach
  void close() {
    psp.close();
  }

  private RestClient client() {
    Retrier retrier =
        Retrier.builder()
            .policy(policy)
            .clock(clock)
            .sleeper(
                d -> {
                  waits.add(d);
                  clock.advance(d);
                  whileWaiting.run();
                })
            .listener(
                new ClientListener() {
                  @Override
                  public void attemptEnded(Call call, int attempt, Outcome outcome) {
                    statuses.add(outcome.status());
                  }
                })
            .build();
    return RestClient.builder()
        .baseUrl(psp.baseUri().toString())
        .requestFactory(new JdkClientHttpRequestFactory())
        .requestInterceptor(new OnceRetryInterceptor(retrier))
        .build();
  }

  private RestClient.RequestBodySpec charge(RestClient client, String reference, String amount) {
    return (RestClient.RequestBodySpec)
        client
            .post()
            .uri("/v1/charges")
            .contentType(MediaType.APPLICATION_JSON)
            .body(
                "{\"reference\":\"%s\",\"amount\":\"%s\",\"currency\":\"EUR\"}"
                    .formatted(reference, amount));
  }

  @Test
  void aLostAnswerIsRetriedUnderTheGeneratedKeyAndReplayed() {
    psp.faults(Faults.NONE.withLostAnswerRate(1.0));

    ResponseEntity<String> r = charge(client(), "o-1", "12.50").retrieve().toEntity(String.class);

    assertThat(r.getStatusCode().value()).isEqualTo(201);
    assertThat(r.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
    assertThat(statuses).containsExactly(-1, 201);
    assertThat(psp.stats("o-1").effects()).isEqualTo(1);
  }

  @Test
  void a503IsRetriedAfterItsRetryAfterByTheInjectedClock() {
    psp.faults(Faults.NONE.withErrorRate(1.0));
    whileWaiting = () -> psp.faults(Faults.NONE);

    ResponseEntity<String> r = charge(client(), "o-2", "12.50").retrieve().toEntity(String.class);

    assertThat(r.getStatusCode().value()).isEqualTo(201);
    assertThat(waits).containsExactly(Duration.ofSeconds(1));
    assertThat(statuses).containsExactly(503, 201);
    assertThat(psp.stats("o-2").effects()).isEqualTo(1);
  }

  @Test
  void theCallersKeyIsKeptAndItsReuseIsTheDistinctException() {
    RestClient client = client();
    charge(client, "o-3", "12.50")
        .header("Idempotency-Key", "o-3-key")
        .retrieve()
        .toBodilessEntity();

    assertThatThrownBy(
            () ->
                charge(client, "o-3", "99.00")
                    .header("Idempotency-Key", "o-3-key")
                    .retrieve()
                    .toBodilessEntity())
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class, e -> assertThat(e.key()).isEqualTo("o-3-key"));
    assertThat(statuses).containsExactly(201, 422);
    assertThat(psp.stats("o-3").effects()).isEqualTo(1);
  }

  @Test
  void anotherClientErrorIsTheAnswerAtTheFirstAttempt() {
    assertThatThrownBy(() -> charge(client(), "o-4", "-1").retrieve().toBodilessEntity())
        .isInstanceOfSatisfying(
            HttpClientErrorException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(HttpStatusCode.valueOf(422));
              assertThat(e.getResponseBodyAsString()).contains("invalid-request");
            });
    assertThat(statuses).containsExactly(422);
  }

  @Test
  void aPostWithoutAKeyIsSentOnceButAGetIsRetried() {
    policy = policy.toBuilder().maxAttempts(3).build();
    RestClient client = client();
    psp.close(); // every attempt: connection refused

    assertThatThrownBy(
            () ->
                charge(client, "o-5", "12.50")
                    .attribute(OnceRetryInterceptor.WITHOUT_KEY, true)
                    .retrieve()
                    .toBodilessEntity())
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.getMessage()).contains("not retried: POST without an Idempotency-Key");
            });
    assertThatThrownBy(() -> client.get().uri("/health").retrieve().toBodilessEntity())
        .isInstanceOfSatisfying(GaveUpException.class, e -> assertThat(e.attempts()).isEqualTo(3));
  }

  @Test
  void theDeadlineEndsACallThatNeverGetsAnAnswer() {
    psp.faults(Faults.NONE.withErrorRate(1.0));
    policy = policy.toBuilder().deadline(Duration.ofSeconds(3)).build();

    assertThatThrownBy(() -> charge(client(), "o-6", "12.50").retrieve().toBodilessEntity())
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.lastStatus()).isEqualTo(503);
            });
    assertThat(psp.stats("o-6").requests()).isEqualTo(3);
    assertThat(psp.stats("o-6").effects()).isZero();
  }
}
