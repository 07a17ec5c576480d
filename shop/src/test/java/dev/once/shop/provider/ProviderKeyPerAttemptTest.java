package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.Faults;
import dev.once.shop.broken.BrokenMode;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link BrokenMode#PROVIDER_KEY_PER_ATTEMPT} really breaks the shop, as {@code once-verify chaos}
 * must be able to see: a charge whose first answer is lost after the provider applied it is sent
 * again under a new Idempotency-Key, so the provider applies it twice.
 */
@TestPropertySource(
    properties = {
      BrokenMode.PROPERTY + "=provider-key-per-attempt",
      BrokenMode.ALLOW_PROPERTY + "=true"
    })
class ProviderKeyPerAttemptTest extends RelayingShopTest {
  @Test
  void aChargeWhoseAnswerWasLostIsAppliedTwice() {
    AtomicReference<String> paid = new AtomicReference<>();
    CountDownLatch known = new CountDownLatch(1);
    // Every answer is lost until the payment's first charge is applied; then none is.
    provider.faults(new Faults(0, 0, 0, 1.0, 1000));
    provider.afterApply(
        reference -> {
          try {
            // The relay may call before the payment's id is back here; bounded so a failed test
            // ends.
            known.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (reference.equals(paid.get())) {
            provider.faults(Faults.NONE);
          }
        });
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "12.50", "EUR").text("id");
    paid.set(payment);
    known.countDown();

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);

    assertThat(provider.stats(payment).effects()).isEqualTo(2);
    // The shop saw one answer and moved the money once.
    assertThat(client.balance(account)).isEqualTo("87.5000");
  }
}
