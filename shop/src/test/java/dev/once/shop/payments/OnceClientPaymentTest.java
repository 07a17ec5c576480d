package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.client.CallRetryPolicy;
import dev.once.client.ClientListener;
import dev.once.client.IdempotencyKeyReusedException;
import dev.once.client.OnceClient;
import dev.once.client.OnceRequest;
import dev.once.client.OnceResponse;
import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.test.fixtures.SettableClock;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * once-client against the real shop: a payment sent twice under one key charges once and the second
 * answer is a replay; a 409 while the first request with the key is still in its transaction is
 * waited out (by the client's own clock, which only the client's waits move) and then replayed;
 * another payment under a used key is the distinct exception naming the key.
 */
@Timeout(120)
class OnceClientPaymentTest extends ShopIntegrationTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<Duration> waits = new CopyOnWriteArrayList<>();
  private final List<String> reasons = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private volatile Runnable whileWaiting = () -> {};
  private OnceClient once;
  private TestClient client;
  private String account;

  @BeforeEach
  void setUp() {
    once =
        OnceClient.builder()
            .retry(CallRetryPolicy.builder().deadline(Duration.ofSeconds(30)).build())
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
                  public void retrying(Call call, int attempt, Duration delay, String reason) {
                    reasons.add(reason);
                  }
                })
            .build();
    client = newClient();
    account = client.openAccountWith("EUR", "100.00");
  }

  @AfterEach
  void stop() throws InterruptedException {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  private OnceRequest payment(String amount, String key) {
    return OnceRequest.post(http.request("/v1/payments").build().uri())
        .header("Authorization", "Bearer " + client.apiKey())
        .json(
            "{\"accountId\":\"%s\",\"amount\":\"%s\",\"currency\":\"EUR\"}"
                .formatted(account, amount))
        .key(key);
  }

  @Test
  void aPaymentSentTwiceUnderOneKeyChargesOnceAndTheSecondAnswerIsAReplay() {
    OnceResponse first = once.send(payment("12.50", "order-1-payment"));
    OnceResponse second = once.send(payment("12.50", "order-1-payment"));

    assertThat(first.status()).isEqualTo(201);
    assertThat(first.replayed()).isFalse();
    assertThat(second.status()).isEqualTo(201);
    assertThat(second.replayed()).isTrue();
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(second.key()).isEqualTo("order-1-payment");
    assertThat(client.balance(account)).isEqualTo("87.5000");
  }

  @Test
  void aConflictWhileTheFirstRequestIsInFlightIsWaitedOutThenReplayed() throws Exception {
    Future<OnceResponse> first;
    try (Connection blocker = BlockedBackends.lockAccount(ownerDataSource(), account)) {
      first = threads.submit(() -> once.send(payment("12.50", "order-2-payment")));
      BlockedBackends.awaitBlockedOn(jdbc, "account");
      whileWaiting =
          () -> {
            // The first request's transaction goes on while the second one waits.
            try {
              blocker.rollback();
              first.get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          };

      OnceResponse second = once.send(payment("12.50", "order-2-payment"));

      assertThat(second.status()).isEqualTo(201);
      assertThat(second.attempts()).isEqualTo(2);
      assertThat(second.replayed()).isTrue();
      assertThat(second.body()).isEqualTo(first.get().body());
    }
    assertThat(first.get().attempts()).isEqualTo(1);
    assertThat(waits).as("the shop's Retry-After: 1").containsExactly(Duration.ofSeconds(1));
    assertThat(reasons).singleElement().asString().contains("409 idempotency-key-in-use");
    assertThat(client.balance(account)).isEqualTo("87.5000");
  }

  @Test
  void anotherPaymentUnderAUsedKeyIsTheDistinctExceptionNamingTheKey() {
    once.send(payment("12.50", "order-3-payment"));

    assertThatThrownBy(() -> once.send(payment("20.00", "order-3-payment")))
        .isInstanceOfSatisfying(
            IdempotencyKeyReusedException.class,
            e -> {
              assertThat(e.key()).isEqualTo("order-3-payment");
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.getMessage()).contains("order-3-payment").doesNotContain("20.00");
            });
    assertThat(waits).isEmpty();
    assertThat(client.balance(account)).isEqualTo("87.5000");
  }
}
