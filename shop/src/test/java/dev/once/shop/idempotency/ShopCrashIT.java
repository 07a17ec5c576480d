package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.ChildShop;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * G5 for real: a second shop JVM on the same database is killed with SIGKILL while a payment is
 * inside its transaction. Nothing of the payment may be committed, the key may not be stuck, and
 * the retry (served by this JVM's shop) must pay exactly once.
 */
class ShopCrashIT extends ShopIntegrationTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @Autowired Environment environment;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void paymentInFlightWhenTheJvmIsKilledCommitsNothingAndTheRetryPaysOnce() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "crash-" + System.nanoTime();
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"25.00\",\"currency\":\"EUR\"}";

    try (ChildShop child = ChildShop.start(environment, List.of())) {
      CompletableFuture<?> inFlight;
      int backend;
      try (Connection blocker = BlockedBackends.lockAccount(ownerDataSource(), account)) {
        ShopHttp childHttp = child.http();
        inFlight =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    childHttp.post("/v1/payments", client.apiKey(), key, body);
                  } catch (RuntimeException expected) {
                    // The child dies mid-request: the connection breaks.
                  }
                },
                THREADS);
        // The child's transaction has claimed the key and waits on the account row.
        backend = BlockedBackends.awaitBlockedOn(jdbc, "account");

        child.kill();
        blocker.rollback();
      }
      // The orphaned session ends when PostgreSQL notices its client is gone.
      BlockedBackends.awaitGone(jdbc, backend);
      inFlight.get(60, TimeUnit.SECONDS);
    }

    assertThat(count("SELECT count(*) FROM payment WHERE account_id = ?", account)).isZero();
    assertThat(count("SELECT count(*) FROM once.outbox WHERE payload->>'accountId' = ?", account))
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'", account))
        .isZero();
    assertThat(count("SELECT count(*) FROM once.idempotency_key WHERE idem_key = ?", key)).isZero();

    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, body);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    ShopResponse again = http.post("/v1/payments", client.apiKey(), key, body);
    assertThat(again.body()).isEqualTo(retry.body());
    assertThat(again.header("Idempotent-Replayed")).hasValue("true");
    assertThat(
            count(
                "SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'", account))
        .isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("75.0000");
  }

  private long count(String sql, String param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }
}
