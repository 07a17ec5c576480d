package dev.once.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.psp.Faults;
import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * once-client against a real provider, the psp-simulator, with its injected faults: 5xx, held
 * requests that time out, lost answers (the effect applied, the answer dropped) and 409 while the
 * first request with a key is in flight. The simulator's effect counters show that no retry doubles
 * an effect; waits are read from the client's own clock ({@link FakeTime}), which the test never
 * sleeps on.
 */
@Timeout(60)
class PspSimulatorRetryTest {
  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final FakeTime time = new FakeTime();
  private CallRetryPolicy policy =
      CallRetryPolicy.builder()
          .maxAttempts(Integer.MAX_VALUE)
          .attemptTimeout(Duration.ofSeconds(10))
          .deadline(Duration.ofSeconds(10))
          .build();

  @AfterEach
  void close() {
    psp.close();
  }

  private OnceClient client() {
    return OnceClient.builder()
        .retry(policy)
        .clock(time.clock)
        .sleeper(time)
        .random(new SplittableRandom(3))
        .build();
  }

  private OnceRequest charge(String reference, String amount) {
    return OnceRequest.post(psp.baseUri().resolve("/v1/charges"))
        .json(
            "{\"reference\":\"%s\",\"amount\":\"%s\",\"currency\":\"EUR\"}"
                .formatted(reference, amount));
  }

  @Test
  void aLostAnswerIsRetriedUnderItsKeyAndReplayedWithoutASecondEffect() {
    psp.faults(Faults.NONE.withLostAnswerRate(1.0));

    OnceResponse r = client().send(charge("order-1", "12.50"));

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(r.replayed()).as("the stored answer of the first, lost, attempt").isTrue();
    assertThat(psp.stats("order-1").effects()).isEqualTo(1);
    assertThat(psp.stats().lostAnswers()).isEqualTo(1);
  }

  @Test
  void a503IsRetriedAfterItsRetryAfterByTheClientsClock() {
    psp.faults(Faults.NONE.withErrorRate(1.0));
    time.onSleep(() -> psp.faults(Faults.NONE)); // the provider recovers while the client waits

    OnceResponse r = client().send(charge("order-2", "12.50"));

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(r.replayed()).isFalse();
    assertThat(time.sleeps)
        .as("the simulator's Retry-After: 1, not the jittered backoff")
        .containsExactly(Duration.ofSeconds(1));
    assertThat(psp.stats("order-2").effects()).isEqualTo(1);
    assertThat(psp.stats().errors()).isEqualTo(1);
  }

  @Test
  void aHeldRequestThatTimesOutAtTheProviderIsRetried() {
    psp.faults(Faults.NONE.withTimeoutRate(1.0).withTimeoutMs(100));
    time.onSleep(() -> psp.faults(Faults.NONE));

    OnceResponse r = client().send(charge("order-3", "12.50"));

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(psp.stats().timeouts()).isEqualTo(1);
    assertThat(psp.stats("order-3").effects()).isEqualTo(1);
  }

  @Test
  void a409WhileTheFirstRequestIsInFlightIsWaitedOutThenReplayed() throws Exception {
    CountDownLatch applied = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    psp.afterApply(
        reference -> {
          applied.countDown();
          await(release);
        });
    OnceRequest request = charge("order-4", "12.50").key("order-4-charge");
    AtomicReference<OnceResponse> firstAnswer = new AtomicReference<>();
    Thread first = new Thread(() -> firstAnswer.set(client().send(request)), "first-request");
    first.start();
    assertThat(applied.await(30, TimeUnit.SECONDS)).isTrue();
    time.onSleep(
        () -> {
          release.countDown(); // the first request finishes while the second one waits
          join(first);
        });

    OnceResponse second = client().send(request);

    assertThat(firstAnswer.get().replayed()).isFalse();
    assertThat(second.status()).isEqualTo(201);
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.replayed()).isTrue();
    assertThat(second.body()).isEqualTo(firstAnswer.get().body());
    assertThat(time.sleeps).as("the 409's Retry-After: 1").containsExactly(Duration.ofSeconds(1));
    assertThat(psp.stats("order-4").effects()).isEqualTo(1);
  }

  @Test
  void aProviderThatStaysDownIsGivenUpAtTheDeadlineWithAClearError() {
    psp.faults(Faults.NONE.withErrorRate(1.0));
    policy = policy.toBuilder().deadline(Duration.ofSeconds(5)).build();

    assertThatThrownBy(() -> client().send(charge("order-5", "12.50").key("order-5-charge")))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              // attempts at 0, 1, 2, 3, 4 s (Retry-After: 1); a fifth wait would end at 5 s
              assertThat(e.attempts()).isEqualTo(5);
              assertThat(e.elapsed()).isEqualTo(Duration.ofSeconds(4));
              assertThat(e.lastStatus()).isEqualTo(503);
              assertThat(e.key()).isEqualTo("order-5-charge");
              assertThat(e.getMessage())
                  .startsWith("Gave up after 5 attempts in 4000 ms")
                  .contains("would pass the deadline PT5S", "last: HTTP 503", "order-5-charge")
                  .doesNotContain("provider-unavailable\",");
            });
    assertThat(psp.stats("order-5").requests()).isEqualTo(5);
    assertThat(psp.stats("order-5").effects()).isZero();
  }

  @Test
  void a422IsNeverRetried() {
    OnceResponse r = client().send(charge("order-6", "-1"));

    assertThat(r.status()).isEqualTo(422);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.problemType()).endsWith("/invalid-request");
    assertThat(time.sleeps).isEmpty();
  }

  @Test
  void anotherKeysReuseIsTheDistinctExceptionAndNotRetried() {
    OnceClient client = client();
    client.send(charge("order-7", "12.50").key("order-7-charge"));

    assertThatThrownBy(() -> client.send(charge("order-7", "99.00").key("order-7-charge")))
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class,
            e -> {
              assertThat(e.key()).isEqualTo("order-7-charge");
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.getMessage()).contains("order-7-charge").doesNotContain("99.00");
            });
    assertThat(psp.stats("order-7").requests()).as("first charge, one reuse").isEqualTo(2);
    assertThat(psp.stats("order-7").effects()).isEqualTo(1);
  }

  @Test
  void a404IsNeverRetried() {
    OnceResponse r =
        client()
            .send(
                OnceRequest.post(psp.baseUri().resolve("/v1/refunds"))
                    .json(
                        "{\"reference\":\"r-1\",\"charge\":\"nothing\",\"amount\":\"1.00\","
                            + "\"currency\":\"EUR\"}"));

    assertThat(r.status()).isEqualTo(404);
    assertThat(r.attempts()).isEqualTo(1);
  }

  @Test
  void aProviderThatIsGoneIsGivenUpWithTheConnectionErrorsClass() throws IOException {
    URI gone = psp.baseUri().resolve("/v1/charges");
    psp.close();
    policy = policy.toBuilder().maxAttempts(3).build();

    assertThatThrownBy(() -> client().send(OnceRequest.post(gone).json("{}")))
        .isInstanceOfSatisfying(
            GaveUpException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.lastException()).isEqualTo("java.net.ConnectException");
            });
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void join(Thread t) {
    try {
      t.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
