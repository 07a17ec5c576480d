package dev.once.shop.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One client hammering one account cannot take the pooled connections its neighbours need: with the
 * per-client caps as the shop ships them ({@code application.yml}), a flood of deposits from more
 * threads than the pool has connections, on an account whose row the test holds locked (so every
 * admitted deposit waits inside its transaction, holding a connection, as behind a slow writer),
 * holds exactly the cap's connections and is refused 429 {@code too-many-requests-in-flight} beyond
 * it, executing nothing. Meanwhile another client's deposits, payments and reads, as many at once
 * as its own cap allows, all succeed. Then the lock is released: the admitted deposits complete,
 * and a refused key executes when it is sent again.
 */
class ClientFloodTest extends ShopIntegrationTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();
  private static final String CAPS = "once.idempotency.limits.";

  /** The caps of application.yml, which the tests' base turns off for every other test. */
  @DynamicPropertySource
  static void shopCaps(DynamicPropertyRegistry registry) {
    YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
    yaml.setResources(new ClassPathResource("application.yml"));
    Properties shop = yaml.getObject();
    for (String cap : List.of("max-in-flight-per-client", "new-keys-per-minute")) {
      String value = shop.getProperty(CAPS + cap);
      assertThat(value).as("application.yml sets " + CAPS + cap).isNotBlank();
      registry.add(CAPS + cap, () -> value);
    }
  }

  @Value("${" + CAPS + "max-in-flight-per-client}")
  int cap;

  @Value("${spring.datasource.hikari.maximum-pool-size}")
  int poolSize;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void aClientFloodingOneAccountIsRefusedBeyondItsCapAndAnotherClientIsServed() throws Exception {
    assertThat(cap).as("the shop's cap leaves connections to others").isPositive();
    assertThat(cap).isLessThan(poolSize);
    TestClient flooder = newClient();
    String hot = flooder.openAccountWith("EUR", "10.00");
    TestClient neighbour = newClient();
    String own = neighbour.openAccountWith("EUR", "100.00");
    String deposit = "{\"amount\":\"1.00\"}";

    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger executed = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    Queue<ShopResponse> unexpected = new ConcurrentLinkedQueue<>();
    AtomicReference<String> refusedKey = new AtomicReference<>();
    List<Future<?>> flood = new ArrayList<>();
    try (Connection lock = BlockedBackends.lockAccount(ownerDataSource(), hot)) {
      for (int t = 0; t < poolSize + cap; t++) {
        flood.add(
            THREADS.submit(
                () -> {
                  while (!stop.get()) {
                    String key = ShopHttp.newKey();
                    ShopResponse answer =
                        http.post(
                            "/v1/accounts/" + hot + "/deposits", flooder.apiKey(), key, deposit);
                    if (answer.status() == 201) {
                      executed.incrementAndGet();
                    } else if (answer.status() == 429
                        && answer.body().contains("too-many-requests-in-flight")
                        && answer.header("Retry-After").isPresent()) {
                      refused.incrementAndGet();
                      refusedKey.compareAndSet(null, key);
                    } else {
                      unexpected.add(answer);
                    }
                  }
                }));
      }
      // The flood holds what it may (its cap's deposits wait on the row lock) and is refused
      // beyond.
      await("the flood at its cap and refused beyond it")
          .atMost(LIMIT)
          .until(() -> blockedOnLocks() >= cap && refused.get() >= poolSize);
      assertThat(blockedOnLocks()).as("connections the flood holds").isEqualTo(cap);

      for (int round = 0; round < 3; round++) {
        int refusedBefore = refused.get();
        List<Future<ShopResponse>> answers = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
          int n = i;
          answers.add(
              THREADS.submit(
                  () ->
                      switch (n % 3) {
                        case 0 -> neighbour.post("/v1/accounts/" + own + "/deposits", deposit);
                        case 1 ->
                            neighbour.post(
                                "/v1/payments",
                                "{\"accountId\":\""
                                    + own
                                    + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}");
                        default -> neighbour.get("/v1/accounts/" + own);
                      }));
        }
        for (Future<ShopResponse> answer : answers) {
          ShopResponse response = answer.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
          assertThat(response.status()).as(response.body()).isIn(200, 201);
        }
        // Still flooding, still refused, still holding its connections.
        await("the flood refused again").atMost(LIMIT).until(() -> refused.get() > refusedBefore);
        assertThat(blockedOnLocks()).isEqualTo(cap);
      }
      assertThat(executed).as("nothing of the flood ran past the lock").hasValue(0);
      stop.set(true);
      lock.rollback();
    } finally {
      stop.set(true);
    }
    for (Future<?> thread : flood) {
      thread.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
    }
    assertThat(unexpected).as("answers other than 201 and 429").isEmpty();
    assertThat(executed.get()).isBetween(cap, cap + poolSize + cap);
    assertThat(flooder.balance(hot))
        .as("each executed deposit, and nothing of the refused ones")
        .isEqualTo(String.format("%d.0000", 10 + executed.get()));

    ShopResponse retry =
        http.post("/v1/accounts/" + hot + "/deposits", flooder.apiKey(), refusedKey.get(), deposit);
    retry.assertStatus(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
  }

  /** Backends of the shop that wait on a lock now. */
  private int blockedOnLocks() {
    return jdbc.sql(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND datname = current_database() AND pid <> pg_backend_pid()")
        .query(Integer.class)
        .single();
  }
}
