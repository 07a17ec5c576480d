package dev.once.shop.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.SmallPoolShopTest;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Once's per-client cap on new keys and its bound on stored answers, through the shop's API: a
 * client over its new keys per minute gets 429 {@code too-many-new-keys} with {@code Retry-After},
 * nothing of the request is executed and its key stays free; an answer too large to store is
 * refused with 422 {@code answer-too-large} and nothing of it is written. Small limits, and the
 * shop's clock stands still unless a test moves it.
 */
class ClientLimitsTest extends SmallPoolShopTest {
  static final int NEW_KEYS_PER_MINUTE = 5;

  /** Above an account's answer and a product's with a short name; below one with a long name. */
  static final int MAX_ANSWER = 128;

  @DynamicPropertySource
  static void limits(DynamicPropertyRegistry registry) {
    registry.add("once.idempotency.limits.new-keys-per-minute", () -> NEW_KEYS_PER_MINUTE);
    registry.add("once.idempotency.limits.max-answer-size", () -> MAX_ANSWER + "B");
  }

  @Test
  void aClientOverItsNewKeysPerMinuteGets429AndItsKeyStaysFree() {
    TestClient client = TestClient.create(http);
    for (int i = 0; i < NEW_KEYS_PER_MINUTE; i++) {
      client.openAccount("EUR");
    }
    long accounts = accounts(client);
    String key = ShopHttp.newKey();

    ShopResponse refused =
        http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\"}");

    refused.assertProblem(429, "too-many-new-keys");
    assertThat(refused.header("Retry-After")).hasValue("12");
    assertThat(accounts(client)).isEqualTo(accounts);
    TestClient other = TestClient.create(http);
    other.openAccount("EUR");

    clock.advance(Duration.ofSeconds(12));
    ShopResponse retry = http.post("/v1/accounts", client.apiKey(), key, "{\"currency\":\"EUR\"}");
    retry.assertStatus(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(accounts(client)).isEqualTo(accounts + 1);
  }

  @Test
  void anAnswerTooLargeToStoreIsRefusedAndNothingOfItIsWritten() {
    TestClient client = TestClient.create(http);
    String sku = "BIG-" + Long.toString(System.nanoTime(), 36).toUpperCase();
    String key = ShopHttp.newKey();

    ShopResponse refused = http.post("/v1/products", client.apiKey(), key, product(sku, 100));

    refused.assertProblem(422, "answer-too-large");
    assertThat(refused.header("Idempotent-Replayed")).isEmpty();
    assertThat(products(client, sku)).isZero();
    assertThat(storedKeys(client, key)).isZero();

    // The key stays free: the request corrected executes under it.
    ShopResponse created = http.post("/v1/products", client.apiKey(), key, product(sku, 1));
    created.assertStatus(201);
    assertThat(created.body().length()).isLessThanOrEqualTo(MAX_ANSWER);
    assertThat(products(client, sku)).isEqualTo(1);
  }

  private static String product(String sku, int nameLength) {
    return "{\"sku\":\""
        + sku
        + "\",\"name\":\""
        + "n".repeat(nameLength)
        + "\",\"price\":\"1.00\",\"currency\":\"EUR\",\"stock\":1}";
  }

  private long accounts(TestClient client) {
    return jdbc.sql("SELECT count(*) FROM account WHERE client_id = ?")
        .param(client.id())
        .query(Long.class)
        .single();
  }

  private long products(TestClient client, String sku) {
    return jdbc.sql("SELECT count(*) FROM product WHERE client_id = ? AND sku = ?")
        .param(client.id())
        .param(sku)
        .query(Long.class)
        .single();
  }

  private long storedKeys(TestClient client, String key) {
    return jdbc.sql(
            "SELECT count(*) FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?")
        .param(client.id())
        .param(key)
        .query(Long.class)
        .single();
  }
}
