package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import org.junit.jupiter.api.Test;

/**
 * Once stores only the answers the shop's handlers give. The shop answers an unknown path with a
 * 404 problem of its own making (ProblemExceptionHandler), but no handler gave it: the key stays
 * free. (A handler's refusal, such as insufficient-funds, is stored: {@code IdempotencyTest}.)
 */
class HandlerAnswersTest extends ShopIntegrationTest {

  @Test
  void aPostToAnUnknownV1PathIsAnsweredAfreshEachTimeAndNotStored() {
    TestClient client = newClient();
    String key = ShopHttp.newKey();

    ShopResponse first = http.post("/v1/nowhere", client.apiKey(), key, "{}");
    ShopResponse retry = http.post("/v1/nowhere", client.apiKey(), key, "{}");

    first.assertStatus(404);
    retry.assertStatus(404);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(
            jdbc.sql("SELECT count(*) FROM once.idempotency_key WHERE idem_key = ?")
                .param(key)
                .query(Long.class)
                .single())
        .isZero();
  }
}
