package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shop under Once's HTTP idempotency contract (G1): every {@code /v1} POST needs a key, a retry
 * gets the first answer and takes no second effect, keys are scoped per client, and a refused
 * request stores its answer but none of its writes.
 */
class IdempotencyTest extends ShopIntegrationTest {
  private TestClient client;
  private String account;

  @BeforeEach
  void accountWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
  }

  @Test
  void everyV1PostNeedsAKey() {
    RowCounts before = rowCounts();
    for (String path :
        new String[] {"/v1/accounts", "/v1/accounts/" + account + "/deposits", "/v1/payments"}) {
      http.send(
              http.request(path)
                  .header("Authorization", "Bearer " + client.apiKey())
                  .header("Content-Type", ShopHttp.JSON)
                  .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":\"1\"}")))
          .assertProblem(400, "idempotency-key-missing");
    }
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
  void aRetryGetsTheFirstAnswerAndChargesOnce() {
    String key = ShopHttp.newKey();
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"10\",\"currency\":\"EUR\"}";

    ShopResponse first = http.post("/v1/payments", client.apiKey(), key, body).assertStatus(201);
    RowCounts afterFirst = rowCounts();
    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, body);

    retry.assertStatus(201);
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(first.header("Idempotent-Replayed")).isEmpty();
    assertThat(rowCounts()).isEqualTo(afterFirst);
    assertThat(client.balance(account)).isEqualTo("90.0000");
  }

  @Test
  void theSameKeyWithAnotherBodyIsRefused() {
    String key = ShopHttp.newKey();
    http.post("/v1/accounts/" + account + "/deposits", client.apiKey(), key, "{\"amount\":\"1\"}")
        .assertStatus(201);
    RowCounts before = rowCounts();

    http.post("/v1/accounts/" + account + "/deposits", client.apiKey(), key, "{\"amount\":\"2\"}")
        .assertProblem(422, "idempotency-key-reused");

    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void aRefusalIsStoredAndReplayedWithoutItsWrites() {
    String key = ShopHttp.newKey();
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"500\",\"currency\":\"EUR\"}";
    RowCounts before = rowCounts();
    ShopResponse first = http.post("/v1/payments", client.apiKey(), key, body);
    first.assertProblem(422, "insufficient-funds");
    assertThat(rowCounts()).isEqualTo(before);

    // Even once the money is there, the key's answer stays the refusal.
    client.deposit(account, "1000");
    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, body);
    retry.assertProblem(422, "insufficient-funds");
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(client.balance(account)).isEqualTo("1100.0000");
  }

  @Test
  void keysAreScopedPerClient() {
    TestClient other = newClient();
    String key = ShopHttp.newKey();
    ShopResponse mine =
        http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\"}").assertStatus(201);
    ShopResponse theirs =
        http.post("/v1/accounts", other.apiKey(), key, "{\"currency\":\"EUR\"}").assertStatus(201);

    assertThat(theirs.text("id")).isNotEqualTo(mine.text("id"));
    assertThat(theirs.header("Idempotent-Replayed")).isEmpty();
  }

  @Test
  void aDisabledClientGets401EvenForACompletedKey() {
    String key = ShopHttp.newKey();
    http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\"}").assertStatus(201);
    http.admin("/admin/v1/clients/" + client.id() + "/disable", "").assertStatus(200);

    http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\"}")
        .assertProblem(401, "unauthorized");
  }

  @Test
  void concurrentRetriesOfOneKeyTakeOneEffect() throws Exception {
    String key = ShopHttp.newKey();
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"1\",\"currency\":\"EUR\"}";
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ShopResponse>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return http.post("/v1/payments", client.apiKey(), key, body);
                }));
      }
      go.countDown();
      int created = 0;
      for (Future<ShopResponse> future : futures) {
        ShopResponse answer = future.get(60, TimeUnit.SECONDS);
        if (answer.status() == 201) {
          created++;
        } else {
          answer.assertProblem(409, "idempotency-key-in-use");
          assertThat(answer.header("Retry-After")).isPresent();
        }
      }
      assertThat(created).isPositive();
    } finally {
      pool.shutdownNow();
    }
    assertThat(client.balance(account)).isEqualTo("99.0000");
  }
}
