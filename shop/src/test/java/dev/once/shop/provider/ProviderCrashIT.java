package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import dev.once.shop.support.ChildShop;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * G3 and G5 with a real kill: a shop JVM whose relay got the provider to apply a charge is killed
 * with SIGKILL before it recorded the answer. A shop started afterwards on the same database
 * delivers the row again, under the same Idempotency-Key, so the provider, which runs outside both
 * shops and counts its effects, has still applied the charge exactly once, and the payment settles.
 */
class ProviderCrashIT extends ShopIntegrationTest {
  @Autowired private Environment environment;

  @Test
  void aShopKilledBetweenTheProvidersEffectAndItsRecordChargesOnceAfterRestart() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    // This JVM's relay is off: the row waits for the child's.
    String payment = client.pay(account, "30.00", "EUR").text("id");

    CountDownLatch applied = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (PspSimulator provider = PspSimulator.start(PspSettings.defaults())) {
      provider.afterApply(
          reference -> {
            if (reference.equals(payment)) {
              applied.countDown();
              try {
                // Hold the answer until the merchant is dead; bounded so a failed test ends.
                release.await(120, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          });
      List<String> relayOn =
          List.of(
              "--shop.provider.url=" + provider.baseUri(),
              "--shop.provider.read-timeout=2s",
              "--once.outbox.relay.enabled=true",
              "--once.outbox.relay.lease=3s");

      try (ChildShop first = ChildShop.start(environment, relayOn)) {
        assertThat(applied.await(120, TimeUnit.SECONDS)).as("the provider applied it").isTrue();
        first.kill();
      } finally {
        release.countDown();
      }
      assertThat(provider.stats(payment).effects()).isEqualTo(1);
      assertThat(client.get("/v1/payments/" + payment).text("status")).isEqualTo("pending");

      try (ChildShop second = ChildShop.start(environment, relayOn)) {
        await()
            .atMost(Duration.ofSeconds(120))
            .until(() -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
      }
      assertThat(provider.stats(payment).effects()).isEqualTo(1);
      assertThat(provider.stats(payment).requests()).isGreaterThanOrEqualTo(2);
      assertThat(client.balance(account)).isEqualTo("70.0000");
    }
  }
}
