package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.Concurrently;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** G1 on the shop's payments: one effect per (client, key), whatever the retries. */
class PaymentRetryTest extends ShopIntegrationTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  private static String payment(String account, String amount) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}";
  }

  private long charges(String account) {
    return jdbc.sql("SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'")
        .param(account)
        .query(Long.class)
        .single();
  }

  private long payments(String account) {
    return jdbc.sql("SELECT count(*) FROM payment WHERE account_id = ?")
        .param(account)
        .query(Long.class)
        .single();
  }

  /** provider.charge messages for the account, found by payload so orphans would count too. */
  private long outboxRows(String account) {
    return jdbc.sql(
            """
            SELECT count(*) FROM once.outbox
             WHERE type = 'provider.charge' AND payload->>'accountId' = ?
            """)
        .param(account)
        .query(Long.class)
        .single();
  }

  @Test
  void sixtyFourConcurrentSendsOfOneKeyMakeExactlyOnePayment() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "1000.00");
    String key = "pay-" + System.nanoTime();
    int threads = 64;
    List<ShopResponse> answers =
        Concurrently.run(
            threads,
            i -> http.post("/v1/payments", client.apiKey(), key, payment(account, "10.00")));

    Set<String> createdBodies = new HashSet<>();
    int conflicts = 0;
    for (ShopResponse r : answers) {
      assertThat(r.status()).as(r.body()).isIn(201, 409);
      if (r.status() == 201) {
        createdBodies.add(r.body());
      } else {
        r.assertProblem(409, "idempotency-key-in-use");
        assertThat(r.header("Retry-After")).isPresent();
        conflicts++;
      }
    }
    assertThat(createdBodies).hasSize(1);
    assertThat(conflicts).isLessThan(threads);
    assertThat(payments(account)).isEqualTo(1);
    assertThat(charges(account)).isEqualTo(1);
    assertThat(outboxRows(account)).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("990.0000");

    ShopResponse later = http.post("/v1/payments", client.apiKey(), key, payment(account, "10.00"));
    assertThat(later.status()).isEqualTo(201);
    assertThat(later.body()).isEqualTo(createdBodies.iterator().next());
    assertThat(later.header("Idempotent-Replayed")).hasValue("true");
  }

  @Test
  void anotherClientSendingTheSameKeyAndBodyGetsItsOwnExecution() {
    TestClient a = newClient();
    TestClient b = newClient();
    String accountA = a.openAccountWith("EUR", "50.00");
    String accountB = b.openAccountWith("EUR", "50.00");
    String key = "shared-" + System.nanoTime();

    ShopResponse first = http.post("/v1/payments", a.apiKey(), key, payment(accountA, "5.00"));
    // B replays A's exact request: A's account is invisible to B, so B gets its own 404.
    ShopResponse stolen = http.post("/v1/payments", b.apiKey(), key, payment(accountA, "5.00"));
    ShopResponse own = http.post("/v1/payments", b.apiKey(), key + "-b", payment(accountB, "5.00"));

    assertThat(first.status()).isEqualTo(201);
    assertThat(stolen.status()).isEqualTo(404);
    assertThat(stolen.header("Idempotent-Replayed")).isEmpty();
    assertThat(stolen.body()).doesNotContain(first.text("id"));
    assertThat(own.status()).isEqualTo(201);
    assertThat(own.text("id")).isNotEqualTo(first.text("id"));
    assertThat(charges(accountA)).isEqualTo(1);
  }

  @Test
  void sameKeyWithAnotherClientsBodyShapeIsIndependentPerClient() {
    TestClient a = newClient();
    TestClient b = newClient();
    String accountA = a.openAccountWith("EUR", "50.00");
    String accountB = b.openAccountWith("EUR", "50.00");
    String key = "same-" + System.nanoTime();

    ShopResponse forA = http.post("/v1/payments", a.apiKey(), key, payment(accountA, "1.00"));
    ShopResponse forB = http.post("/v1/payments", b.apiKey(), key, payment(accountB, "2.00"));

    assertThat(forA.status()).isEqualTo(201);
    assertThat(forB.status()).isEqualTo(201);
    assertThat(forB.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(accountA)).isEqualTo(1);
    assertThat(charges(accountB)).isEqualTo(1);
  }

  @Test
  void reusedKeyWithDifferentAmountIs422AndChargesNothing() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "50.00");
    String key = "reuse-" + System.nanoTime();
    http.post("/v1/payments", client.apiKey(), key, payment(account, "5.00")).assertStatus(201);

    http.post("/v1/payments", client.apiKey(), key, payment(account, "6.00"))
        .assertProblem(422, "idempotency-key-reused");

    assertThat(charges(account)).isEqualTo(1);
  }

  @Test
  void disabledClientGets401EvenForItsOwnCompletedKey() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "50.00");
    String key = "disabled-" + System.nanoTime();
    http.post("/v1/payments", client.apiKey(), key, payment(account, "5.00")).assertStatus(201);

    http.admin("/admin/v1/clients/" + client.id() + "/disable", "").assertStatus(200);

    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, payment(account, "5.00"));
    retry.assertProblem(401, "unauthorized");
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(account)).isEqualTo(1);
  }

  @Test
  void insufficientFundsIsStoredAndReplayedWithoutWritingAnything() {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "5.00");
    String key = "poor-" + System.nanoTime();

    ShopResponse first = http.post("/v1/payments", client.apiKey(), key, payment(account, "9.00"));
    client.deposit(account, "100.00");
    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, payment(account, "9.00"));

    first.assertProblem(422, "insufficient-funds");
    assertThat(retry.status()).isEqualTo(422);
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(payments(account)).isZero();
  }

  @Test
  void terminatedDatabaseSessionOfAnInFlightPaymentCommitsNothingAndTheRetryPaysOnce()
      throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "terminated-" + System.nanoTime();
    CompletableFuture<ShopResponse> inFlight;
    int backend;
    // Hold the account row so the payment's transaction stops right after claiming its key.
    try (Connection blocker = BlockedBackends.lockAccount(ownerDataSource(), account)) {
      inFlight =
          CompletableFuture.supplyAsync(
              () -> http.post("/v1/payments", client.apiKey(), key, payment(account, "10.00")),
              THREADS);
      backend = BlockedBackends.awaitBlockedOn(jdbc, "account");
      boolean terminated =
          jdbc.sql("SELECT pg_terminate_backend(?)").param(backend).query(Boolean.class).single();
      assertThat(terminated).isTrue();
      blocker.rollback();
    }

    ShopResponse failed = inFlight.get();
    failed.assertProblem(503, "service-unavailable");
    assertThat(payments(account)).isZero();
    assertThat(charges(account)).isZero();
    assertThat(outboxRows(account)).isZero();

    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, payment(account, "10.00"));
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(account)).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("90.0000");
  }
}
