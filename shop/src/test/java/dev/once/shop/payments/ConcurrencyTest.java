package dev.once.shop.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Money under real concurrency: many threads released at once by a latch, each with its own
 * Idempotency-Key, against one account or one payment. Row locks serialize them; the balance never
 * goes below zero, and refunds, reserved at request time, never exceed the payment, whatever the
 * provider's answers.
 */
class ConcurrencyTest extends ShopIntegrationTest {
  private static final int THREADS = 64;

  @Autowired private PaymentService payments;

  @Test
  void concurrentChargesBeyondTheBalanceNeverOverdraw() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100");
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"3.00\",\"currency\":\"EUR\"}";

    List<ShopResponse> answers = all(THREADS, i -> () -> client.post("/v1/payments", body));

    int charged = countCharged(answers, "insufficient-funds");
    // 64 x 3 = 192 asked of 100: exactly the 33 that fit succeed, whatever the order.
    assertThat(charged).isEqualTo(33);
    assertThat(new BigDecimal(client.balance(account))).isEqualByComparingTo("1");
    assertThat(paymentCount(account)).isEqualTo(charged);
  }

  @Test
  void concurrentDepositsAndChargesKeepBalanceEqualToTheJournal() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "10");
    String charge = "{\"accountId\":\"" + account + "\",\"amount\":\"3\",\"currency\":\"EUR\"}";

    List<ShopResponse> answers =
        all(
            THREADS,
            i ->
                () ->
                    i % 2 == 0
                        ? client.post("/v1/payments", charge)
                        : client.post(
                            "/v1/accounts/" + account + "/deposits", "{\"amount\":\"1\"}"));

    int charged = countCharged(answers, "insufficient-funds");
    BigDecimal expected = BigDecimal.valueOf(10 + THREADS / 2 - 3L * (charged - THREADS / 2));
    assertThat(new BigDecimal(client.balance(account))).isEqualByComparingTo(expected);
  }

  @Test
  void concurrentRefundsNeverExceedThePaymentAndMoveNoMoneyUntilConfirmed() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100");
    String payment = client.pay(account, "90", "EUR").text("id");
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id")
        .param("id", payment)
        .update();

    List<ShopResponse> answers =
        all(
            32,
            i -> () -> client.post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"7\"}"));

    int refunded = countCharged(answers, "refund-exceeds-payment");
    // 32 x 7 = 224 asked of 90: exactly 12 fit, reserved on the payment; no money has moved yet.
    assertThat(refunded).isEqualTo(12);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("84.0000");
    assertThat(new BigDecimal(client.balance(account))).isEqualByComparingTo("10");

    // The provider's answers arrive at once: half confirm (each credits 7), half refuse (each
    // releases its 7, nothing credited), while 16 new refunds of 7 compete for what is released.
    List<String> pending =
        answers.stream().filter(a -> a.status() == 201).map(a -> a.text("id")).toList();
    List<ShopResponse> later =
        all(
            pending.size() + 16,
            i ->
                () -> {
                  if (i >= pending.size()) {
                    return client.post(
                        "/v1/payments/" + payment + "/refunds", "{\"amount\":\"7\"}");
                  }
                  payments.settleRefund(
                      pending.get(i), i % 2 == 0 ? PaymentStatus.SUCCEEDED : PaymentStatus.FAILED);
                  return null;
                });

    int again = countCharged(later.subList(pending.size(), later.size()), "refund-exceeds-payment");
    // 6 confirmed hold 42 for good; at most 48 was ever free again, 6 x 7 = 42 of it reservable.
    assertThat(again).isBetween(0, 6);
    assertThat(new BigDecimal(client.get("/v1/payments/" + payment).text("refunded")))
        .isEqualByComparingTo(BigDecimal.valueOf(42 + 7L * again));
    assertThat(new BigDecimal(client.balance(account))).isEqualByComparingTo("52");
    assertThat(
            jdbc.sql("SELECT count(*) FROM operation WHERE account_id = :a AND kind = 'reversal'")
                .param("a", account)
                .query(Long.class)
                .single())
        .isZero();
  }

  /** Counts the 201s; every other answer must be the expected 422 problem, never a 5xx. */
  private static int countCharged(List<ShopResponse> answers, String refusal) {
    int created = 0;
    for (ShopResponse answer : answers) {
      if (answer.status() == 201) {
        created++;
      } else {
        answer.assertProblem(422, refusal);
      }
    }
    return created;
  }

  private long paymentCount(String account) {
    return jdbc.sql("SELECT count(*) FROM payment WHERE account_id = :a")
        .param("a", account)
        .query(Long.class)
        .single();
  }

  /** Runs {@code n} calls on {@code n} threads, all released by one latch, and collects them. */
  static List<ShopResponse> all(int n, IntFunction<Callable<ShopResponse>> call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<ShopResponse>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Callable<ShopResponse> task = call.apply(i);
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return task.call();
                }));
      }
      assertThat(ready.await(30, TimeUnit.SECONDS)).as("all threads ready").isTrue();
      go.countDown();
      List<ShopResponse> answers = new ArrayList<>();
      for (Future<ShopResponse> future : futures) {
        answers.add(future.get(60, TimeUnit.SECONDS));
      }
      return answers;
    } finally {
      pool.shutdownNow();
    }
  }
}
