package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shop under Once's HTTP idempotency contract (G1), where the once-test kit's endpoint
 * assertion ({@link EndpointIdempotencyTest}: retries, concurrent sends, another body, no key,
 * failing handlers, lost answers) does not reach: the problem a keyless request gets, numbers in
 * the fingerprint, keys scoped per client, disabled clients, a lost database session mid-request,
 * and a refused request that stores its answer but none of its writes.
 */
class IdempotencyTest extends ShopIntegrationTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  private TestClient client;
  private String account;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @BeforeEach
  void accountWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
  }

  private static String payment(String account, String amount) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}";
  }

  private ShopResponse pay(TestClient who, String key, String account, String amount) {
    return http.post("/v1/payments", who.apiKey(), key, payment(account, amount));
  }

  private long charges(String account) {
    return count(
        "SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'", account);
  }

  private long payments(String account) {
    return count("SELECT count(*) FROM payment WHERE account_id = ?", account);
  }

  /** provider.charge messages for the account, found by payload so orphans would count too. */
  private long outboxRows(String account) {
    return count(
        """
        SELECT count(*) FROM once.outbox
         WHERE type = 'provider.charge' AND payload->>'accountId' = ?
        """,
        account);
  }

  private long count(String sql, String account) {
    return jdbc.sql(sql).param(account).query(Long.class).single();
  }

  /**
   * The refusal of a request without a key is Once's problem {@code idempotency-key-missing}; that
   * every {@code /v1} POST refuses it with a 400 and no effect, EndpointIdempotencyTest proves.
   */
  @Test
  void aRequestWithoutAKeyIsRefusedWithTheKeyMissingProblem() {
    RowCounts before = rowCounts();
    http.send(
            http.request("/v1/payments")
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Content-Type", ShopHttp.JSON)
                .POST(HttpRequest.BodyPublishers.ofString(payment(account, "1.00"))))
        .assertProblem(400, "idempotency-key-missing");
    assertThat(rowCounts()).isEqualTo(before);
  }

  /**
   * Numbers in the fingerprint are compared by exact value: a body whose number differs only beyond
   * double precision is another request (422), while another spelling of the same value is a retry.
   * (The shop refuses the unknown member {@code n} with a 422 of its own, which is stored like any
   * answer of the handler; the fingerprint is what decides between replay and reuse.)
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "9007199254740993 | 9007199254740992 | 9007199254740993.0",
        "1e-400 | 0 | 10e-401",
        "0.30000000000000001 | 0.3 | 30000000000000001e-17"
      })
  void numbersThatDifferInValueNeverReplayEachOther(String first, String other, String respelled) {
    String key = ShopHttp.newKey();
    ShopResponse stored =
        http.post(
                "/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\",\"n\":" + first + "}")
            .assertProblem(422, "validation-failed");
    RowCounts before = rowCounts();

    http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\",\"n\":" + other + "}")
        .assertProblem(422, "idempotency-key-reused");
    ShopResponse replay =
        http.post(
                "/v1/accounts",
                client.apiKey(),
                key,
                "{ \"n\" : " + respelled + ", \"currency\" : \"EUR\" }")
            .assertStatus(422);

    assertThat(replay.header("Idempotent-Replayed")).hasValue("true");
    assertThat(replay.body()).isEqualTo(stored.body());
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void aRefusalIsStoredAndReplayedWithoutItsWrites() {
    String key = ShopHttp.newKey();
    RowCounts before = rowCounts();
    ShopResponse first = pay(client, key, account, "500");
    first.assertProblem(422, "insufficient-funds");
    assertThat(rowCounts()).isEqualTo(before);

    // Even once the money is there, the key's answer stays the refusal.
    client.deposit(account, "1000");
    ShopResponse retry = pay(client, key, account, "500");
    retry.assertProblem(422, "insufficient-funds");
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(payments(account)).isZero();
    assertThat(client.balance(account)).isEqualTo("1100.0000");
  }

  @Test
  void keysAreScopedPerClient() {
    TestClient other = newClient();
    String theirAccount = other.openAccountWith("EUR", "50.00");
    String key = ShopHttp.newKey();

    ShopResponse mine = pay(client, key, account, "1.00").assertStatus(201);
    ShopResponse theirs = pay(other, key, theirAccount, "2.00").assertStatus(201);

    assertThat(theirs.text("id")).isNotEqualTo(mine.text("id"));
    assertThat(theirs.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(account)).isEqualTo(1);
    assertThat(charges(theirAccount)).isEqualTo(1);
  }

  @Test
  void anotherClientSendingTheSameKeyAndBodyGetsItsOwnExecution() {
    TestClient other = newClient();
    String theirAccount = other.openAccountWith("EUR", "50.00");
    String key = ShopHttp.newKey();

    ShopResponse first = pay(client, key, account, "5.00");
    // The other client replays the exact request: the account is invisible to it, so it gets its
    // own 404.
    ShopResponse stolen = pay(other, key, account, "5.00");
    ShopResponse own = pay(other, key + "-b", theirAccount, "5.00");

    assertThat(first.status()).isEqualTo(201);
    assertThat(stolen.status()).isEqualTo(404);
    assertThat(stolen.header("Idempotent-Replayed")).isEmpty();
    assertThat(stolen.body()).doesNotContain(first.text("id"));
    assertThat(own.status()).isEqualTo(201);
    assertThat(own.text("id")).isNotEqualTo(first.text("id"));
    assertThat(charges(account)).isEqualTo(1);
  }

  @Test
  void aDisabledClientGets401EvenForItsOwnCompletedKey() {
    String key = ShopHttp.newKey();
    pay(client, key, account, "5.00").assertStatus(201);

    http.admin("/admin/v1/clients/" + client.id() + "/disable", "").assertStatus(200);

    ShopResponse retry = pay(client, key, account, "5.00");
    retry.assertProblem(401, "unauthorized");
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(account)).isEqualTo(1);
  }

  @Test
  void terminatedDatabaseSessionOfAnInFlightPaymentCommitsNothingAndTheRetryPaysOnce()
      throws Exception {
    String key = ShopHttp.newKey();
    CompletableFuture<ShopResponse> inFlight;
    int backend;
    // Hold the account row so the payment's transaction stops right after claiming its key.
    try (Connection blocker = BlockedBackends.lockAccount(ownerDataSource(), account)) {
      inFlight = CompletableFuture.supplyAsync(() -> pay(client, key, account, "10.00"), THREADS);
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

    ShopResponse retry = pay(client, key, account, "10.00");
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(charges(account)).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("90.0000");
  }
}
