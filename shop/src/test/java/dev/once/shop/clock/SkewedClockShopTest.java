package dev.once.shop.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.outbox.OutboxRelay;
import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import dev.once.shop.support.ChildShop;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A shop whose clock runs {@link #AHEAD} ahead (this test's context, its {@code Clock} bean offset)
 * beside a shop whose clock is right (a child process), on one database (issue 22, item 3). Key
 * expiry, purge cut-offs and relay leases are the database's clock: the keys the other shop stored
 * stay replayable through the skewed one (its purge deletes none of them, and a retry replays
 * instead of paying again), and the rows the other shop's relay holds stay its own.
 *
 * <p>The skewed shop runs its relay with a poll interval of an hour, so it claims only when the
 * test asks it to ({@link OutboxRelay#runOnce()}); the context is closed after the class, so its
 * relay never runs beside other tests.
 */
@Timeout(600)
@TestPropertySource(
    properties = {"once.outbox.relay.enabled=true", "once.outbox.relay.poll-interval=1h"})
@Import(SkewedClockShopTest.AheadClock.class)
@DirtiesContext
class SkewedClockShopTest extends ShopIntegrationTest {
  /** More than the key retention (24 h) and far more than the relay's lease (10 s). */
  static final Duration AHEAD = Duration.ofHours(25);

  @Autowired private Environment environment;
  @Autowired private IdempotencyEngine engine;
  @Autowired private DataSource dataSource;
  @Autowired private OutboxRelay relay;
  @Autowired private Clock clock;

  @TestConfiguration(proxyBeanMethods = false)
  static class AheadClock {
    @Bean
    @Primary
    Clock aheadClock() {
      return Clock.offset(Clock.systemUTC(), AHEAD);
    }
  }

  @Test
  void theKeysAnotherShopStoredStayReplayableThroughTheShopWhoseClockRunsAhead() throws Exception {
    assertThat(Duration.between(Clock.systemUTC().instant(), clock.instant()))
        .as("premise: this context's clock runs ahead")
        .isGreaterThan(Duration.ofHours(24));
    TestClient client = newClient();
    String payment = "{\"accountId\":\"%s\",\"amount\":\"10.00\",\"currency\":\"EUR\"}";
    String key = ShopHttp.newKey();
    String account;
    ShopResponse first;
    try (ChildShop other = ChildShop.start(environment, List.of())) {
      TestClient there = new TestClient(other.http(), client.id(), client.apiKey());
      account = there.openAccountWith("EUR", "100.00");
      first = there.http().post("/v1/payments", client.apiKey(), key, payment.formatted(account));
      first.assertStatus(201);
    }

    // The statement the shop's key purge runs: it reads the database's clock, not the shop's.
    try (Connection connection = dataSource.getConnection()) {
      assertThat(engine.purgeExpired(connection, 10_000))
          .as("keys the skewed shop's purge deleted")
          .isZero();
    }
    assertThat(keys(client.id())).as("the other shop's keys").isEqualTo(3);

    ShopResponse retry =
        http.post("/v1/payments", client.apiKey(), key, payment.formatted(account));
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed"))
        .as("a replay, not a second payment")
        .hasValue("true");
    assertThat(retry.text("id")).isEqualTo(first.text("id"));
    assertThat(client.balance(account)).as("charged once").isEqualTo("90.0000");
  }

  @Test
  void theRowsAnotherShopsRelayHoldsStayItsOwn() throws Exception {
    TestClient client = newClient();
    CountDownLatch applied = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (PspSimulator provider = PspSimulator.start(PspSettings.defaults())) {
      List<String> relayOn =
          List.of(
              "--shop.provider.url=" + provider.baseUri(),
              "--shop.provider.read-timeout=120s",
              "--once.outbox.relay.types[provider.charge].handler-timeout=300s",
              "--once.outbox.relay.enabled=true");
      try (ChildShop other = ChildShop.start(environment, relayOn)) {
        TestClient there = new TestClient(other.http(), client.id(), client.apiKey());
        String account = there.openAccountWith("EUR", "100.00");
        provider.afterApply(
            reference -> {
              if (applied.getCount() > 0) {
                applied.countDown();
                hold(release); // the other shop's handler waits here, its lease renewed
              }
            });
        String payment = there.pay(account, "30.00", "EUR").text("id");
        try {
          assertThat(applied.await(120, TimeUnit.SECONDS)).as("the charge reached").isTrue();
          String holder = claimOf(payment);
          assertThat(holder).as("the other shop's relay holds the row").isNotNull();

          relay.runOnce();

          assertThat(claimOf(payment)).as("still the other shop's claim").isEqualTo(holder);
        } finally {
          release.countDown();
        }
        await()
            .atMost(Duration.ofSeconds(120))
            .until(() -> there.get("/v1/payments/" + payment).text("status"), "succeeded"::equals);
        assertThat(provider.stats(payment).requests()).as("one call, by its holder").isEqualTo(1);
        assertThat(provider.stats(payment).effects()).isEqualTo(1);
        assertThat(client.balance(account)).isEqualTo("70.0000");
      }
    }
  }

  private String claimOf(String payment) {
    return jdbc.sql(
            "SELECT claim_id::text FROM once.outbox WHERE type = 'provider.charge'"
                + " AND aggregate_id = :payment")
        .param("payment", payment)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  private long keys(String clientId) {
    return jdbc.sql("SELECT count(*) FROM once.idempotency_key WHERE client_id = :client")
        .param("client", clientId)
        .query(Long.class)
        .single();
  }

  private static void hold(CountDownLatch release) {
    try {
      release.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
