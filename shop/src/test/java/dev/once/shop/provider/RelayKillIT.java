package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import dev.once.shop.support.ChildShop;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * The relay's heartbeat with real processes (G3, G5): a shop killed while its relay holds claims
 * leaves rows whose lease ends at most one lease after the kill, and the next shop delivers them,
 * each effect once at the provider; a shop paused (SIGSTOP) past its lease loses its rows to
 * another, and when it resumes its late outcome is refused by the claim's fence.
 */
@Timeout(600)
class RelayKillIT extends ShopIntegrationTest {
  /** The shop's default: once.outbox.relay.lease. */
  private static final Duration LEASE = Duration.ofSeconds(10);

  @Autowired private Environment environment;

  @Test
  void theRowsAShopHeldWhenKilledAreLeasedForAtMostOneLeaseAndDeliveredOnceAfterARestart()
      throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    List<String> payments = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      payments.add(client.pay(account, "1.00", "EUR").text("id"));
    }
    Set<String> applied = ConcurrentHashMap.newKeySet();
    CountDownLatch allApplied = new CountDownLatch(payments.size());
    CountDownLatch release = new CountDownLatch(1);
    try (PspSimulator provider = PspSimulator.start(PspSettings.defaults())) {
      provider.afterApply(
          reference -> {
            if (payments.contains(reference) && applied.add(reference)) {
              allApplied.countDown();
              hold(release); // the answers wait until the shop is dead
            }
          });
      List<String> relayOn =
          List.of(
              "--shop.provider.url=" + provider.baseUri(),
              "--shop.provider.read-timeout=30s",
              "--once.outbox.relay.types[provider.charge].handler-timeout=60s",
              "--once.outbox.relay.enabled=true");
      try (ChildShop first = ChildShop.start(environment, relayOn)) {
        assertThat(allApplied.await(120, TimeUnit.SECONDS)).as("every charge applied").isTrue();
        // Every handler is in flight, each row held by the shop's claim.
        assertThat(claimed(payments)).isEqualTo(payments.size());
        first.kill();
      } finally {
        release.countDown();
      }
      // The kill left each row leased at most one lease ahead: it is free within a lease.
      assertThat(leasedBeyond(payments, LEASE.plusSeconds(1))).isZero();
      assertThat(client.get("/v1/payments/" + payments.get(0)).text("status")).isEqualTo("pending");

      try (ChildShop second = ChildShop.start(environment, relayOn)) {
        for (String payment : payments) {
          await()
              .atMost(Duration.ofSeconds(120))
              .until(
                  () -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
        }
      }
      for (String payment : payments) {
        assertThat(provider.stats(payment).effects()).as(payment).isEqualTo(1);
        assertThat(provider.stats(payment).requests()).as(payment).isGreaterThanOrEqualTo(2);
      }
      assertThat(client.balance(account)).isEqualTo("94.0000");
    }
  }

  @Test
  void aShopPausedPastItsLeaseLosesItsRowAndItsLateOutcomeIsRefusedByTheFence() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String payment = client.pay(account, "30.00", "EUR").text("id");
    CountDownLatch appliedOnce = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (PspSimulator provider = PspSimulator.start(PspSettings.defaults())) {
      provider.afterApply(
          reference -> {
            if (reference.equals(payment) && appliedOnce.getCount() > 0) {
              appliedOnce.countDown();
              hold(release);
            }
          });
      List<String> relayOn =
          List.of(
              "--shop.provider.url=" + provider.baseUri(),
              "--shop.provider.read-timeout=300s",
              "--once.outbox.relay.types[provider.charge].handler-timeout=600s",
              "--once.outbox.relay.enabled=true");
      try (ChildShop paused = ChildShop.start(environment, relayOn)) {
        assertThat(appliedOnce.await(120, TimeUnit.SECONDS)).isTrue();
        paused.pause();
        release.countDown(); // its answer waits in the paused process's socket

        try (ChildShop other = ChildShop.start(environment, relayOn)) {
          await()
              .atMost(Duration.ofSeconds(120))
              .until(
                  () -> client.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
          paused.resume();
          await()
              .atMost(Duration.ofSeconds(120))
              .until(() -> paused.log().contains("its claim had been lost"));
        } finally {
          paused.resume();
        }
      }
      assertThat(provider.stats(payment).effects()).isEqualTo(1);
      assertThat(client.balance(account)).isEqualTo("70.0000");
      assertThat(client.get("/v1/payments/" + payment).text("status")).isEqualTo("succeeded");
    }
  }

  /** Rows of these payments that a claim holds. */
  private long claimed(List<String> payments) {
    return jdbc.sql(
            """
            SELECT count(*) FROM once.outbox
             WHERE type = 'provider.charge' AND aggregate_id IN (:ids)
               AND claim_id IS NOT NULL AND lease_until > now()
            """)
        .param("ids", payments)
        .query(Long.class)
        .single();
  }

  private long leasedBeyond(List<String> payments, Duration bound) {
    return jdbc.sql(
            """
            SELECT count(*) FROM once.outbox
             WHERE type = 'provider.charge' AND aggregate_id IN (:ids)
               AND lease_until > now() + CAST(:bound AS interval)
            """)
        .param("ids", payments)
        .param("bound", bound.toSeconds() + " seconds")
        .query(Long.class)
        .single();
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(300, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
