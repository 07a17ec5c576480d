package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.support.ChildShop;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * HTTP saturation with the relay on, in a real shop process: many more request threads than pooled
 * connections, the relay settling every payment meanwhile. No request gets 503 from the pool
 * because of the relay, no relay outcome fails or times out (a failed completion would leave a
 * retry's error on its row, or a lost claim in the log), load shedding may refuse new payments but
 * keeps the oldest claimable row's age near its limit, and every accepted payment is settled.
 */
@Timeout(900)
class RelaySaturationTest extends ShopIntegrationTest {
  private static final int THREADS = 48;
  private static final int PAYMENTS_PER_THREAD = 25;
  private static final Duration SHEDDING_LIMIT = Duration.ofSeconds(5);

  @Autowired private Environment environment;

  @Test
  void theRelayAndTheRequestsNeverStarveEachOtherUnderSaturation() throws Exception {
    try (ChildShop shop =
        ChildShop.start(
            environment,
            List.of(
                "--once.outbox.relay.enabled=true",
                "--once.outbox.load-shedding.enabled=true",
                "--once.outbox.load-shedding.max-due-age=" + SHEDDING_LIMIT.toSeconds() + "s",
                // Far fewer connections than request threads: the requests saturate the pool.
                "--spring.datasource.hikari.maximum-pool-size=6",
                // Delivered rows are kept, so that a row that was ever retried shows its error.
                "--once.outbox.relay.delivered-retention=1h"))) {
      TestClient client = TestClient.create(shop.http());
      List<String> accounts = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        accounts.add(client.openAccountWith("EUR", "10000.00"));
      }
      Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
      Set<String> payments = ConcurrentHashMap.newKeySet();
      CountDownLatch go = new CountDownLatch(1);
      AtomicLong maxAgeMillis = new AtomicLong();
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      try {
        // Every 100 ms through the load, the age of the oldest row the relay could claim.
        ScheduledFuture<?> sampling =
            sampler.scheduleWithFixedDelay(
                () -> maxAgeMillis.accumulateAndGet(oldestClaimableAgeMillis(), Math::max),
                0,
                100,
                TimeUnit.MILLISECONDS);
        List<Future<?>> load = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          String account = accounts.get(t % accounts.size());
          load.add(
              threads.submit(
                  () -> {
                    go.await();
                    for (int i = 0; i < PAYMENTS_PER_THREAD; i++) {
                      ShopResponse answer =
                          client.post(
                              "/v1/payments",
                              "{\"accountId\":\""
                                  + account
                                  + "\",\"amount\":\"1.00\","
                                  + "\"currency\":\"EUR\"}");
                      String kind =
                          answer.status() == 201
                              ? "201"
                              : answer.status() + " " + slug(answer.text("type"));
                      answers.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
                      if (answer.status() == 201) {
                        payments.add(answer.text("id"));
                      }
                    }
                    return null;
                  }));
        }
        go.countDown();
        for (Future<?> thread : load) {
          thread.get(600, TimeUnit.SECONDS);
        }
        // A sample that threw would have ended the schedule: it still runs, so every sample
        // counted.
        assertThat(sampling.isDone()).as("the sampler still runs").isFalse();
        sampling.cancel(false);

        assertThat(answers.keySet())
            .as("answers by kind: %s", answers)
            .isSubsetOf("201", "503 outbox-overloaded");
        assertThat(payments).isNotEmpty();
        assertThat(maxAgeMillis.get())
            .as(
                "the oldest claimable row's age, sampled through the load (limit %s)",
                SHEDDING_LIMIT)
            .isLessThanOrEqualTo(SHEDDING_LIMIT.multipliedBy(2).toMillis());
      } finally {
        threads.shutdownNow();
        sampler.shutdownNow();
      }

      await().atMost(Duration.ofSeconds(300)).until(() -> pending(payments) == 0);
      await().atMost(Duration.ofSeconds(300)).until(() -> undelivered(payments) == 0);
      assertThat(retriedRows(payments)).as("no relay outcome failed").isZero();
      assertThat(shop.log())
          .doesNotContain("its claim had been lost")
          .doesNotContain("could not record the outcome")
          .doesNotContain("timed out after");
    }
  }

  /** The age of the oldest row the relay could claim now (the load shedding's measure), in ms. */
  private long oldestClaimableAgeMillis() {
    return jdbc.sql(
            """
            SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(o.next_attempt_at)) * 1000, 0)
              FROM once.outbox o
             WHERE o.state = 'pending' AND NOT o.held AND o.next_attempt_at <= now()
               AND (o.lease_until IS NULL OR o.lease_until <= now())
               AND NOT EXISTS (SELECT 1 FROM once.outbox e
                                WHERE e.aggregate_id = o.aggregate_id AND e.id < o.id
                                  AND e.state <> 'delivered')
            """)
        .query(Long.class)
        .single();
  }

  private long pending(Set<String> payments) {
    return jdbc.sql("SELECT count(*) FROM payment WHERE id IN (:ids) AND status = 'pending'")
        .param("ids", payments)
        .query(Long.class)
        .single();
  }

  private long undelivered(Set<String> payments) {
    return jdbc.sql(
            "SELECT count(*) FROM once.outbox WHERE aggregate_id IN (:ids) AND state <> 'delivered'")
        .param("ids", payments)
        .query(Long.class)
        .single();
  }

  private long retriedRows(Set<String> payments) {
    return jdbc.sql(
            """
            SELECT count(*) FROM once.outbox
             WHERE aggregate_id IN (:ids) AND last_error IS NOT NULL
            """)
        .param("ids", payments)
        .query(Long.class)
        .single();
  }

  private static String slug(String type) {
    return type == null ? "none" : type.substring(type.lastIndexOf('/') + 1);
  }
}
