package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.once.shop.events.ShopEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Fifty orders placed at once over HTTP (threads released together by a latch) on six products with
 * too few units for all of them, each order listing a random subset of the products in random
 * order; the running shop's transport (the relay's in-process one, or Kafka) reserves them, in
 * batches when it has several placements at hand. Then: no deadlock (PostgreSQL's counter did not
 * move, nothing logged one), every order left {@code placed} for {@code reserved} or {@code
 * rejected}, held whole or not at all, its decision published exactly once and applied once, and
 * every product's units add up. The shop must keep delivered outbox rows ({@code
 * once.outbox.relay.delivered-retention} above zero): the decisions are counted there.
 */
public final class ConcurrentOrders {
  /** Orders placed at once. */
  public static final int ORDERS = 50;

  /** Products they share. */
  public static final int PRODUCTS = 6;

  /** Units of each product: about half the orders fit. */
  public static final long UNITS = 25;

  private ConcurrentOrders() {}

  /**
   * Places the orders and checks the outcome.
   *
   * @param prefix the products' sku prefix, unique per run
   * @param settle how long the transport may take to decide every order
   */
  public static void placeAndCheck(
      TestClient client, JdbcClient jdbc, String prefix, Duration settle) throws Exception {
    OrderFixture shop = new OrderFixture(client, jdbc);
    String account = client.openAccount("EUR");
    List<String> skus = new ArrayList<>();
    for (int i = 1; i <= PRODUCTS; i++) {
      skus.add(prefix + "-" + i);
      shop.product(prefix + "-" + i, UNITS);
    }
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<Map<String, Long>> wanted = new ArrayList<>();
    for (int i = 0; i < ORDERS; i++) {
      List<String> shuffled = new ArrayList<>(skus);
      Collections.shuffle(shuffled, random);
      Map<String, Long> lines = new LinkedHashMap<>();
      for (String sku : shuffled.subList(0, 1 + random.nextInt(PRODUCTS))) {
        lines.put(sku, 1L + random.nextInt(4));
      }
      wanted.add(lines);
    }
    String why = "seed " + seed;
    long deadlocksBefore = deadlocks(jdbc);

    List<String> orders = new ArrayList<>();
    // Once's transports log a batch that failed (and is then applied one event at a time) at DEBUG,
    // naming the exception: a deadlock would show there.
    Logger once = (Logger) LoggerFactory.getLogger("dev.once");
    Level onceLevel = once.getLevel();
    once.setLevel(Level.DEBUG);
    try (LogCapture logs = LogCapture.start()) {
      for (ShopResponse placed : race(wanted, client, account)) {
        orders.add(placed.assertStatus(201).text("id"));
      }
      await()
          .atMost(settle)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> orders.stream().noneMatch(order -> shop.status(order).equals("placed")));

      assertThat(deadlocks(jdbc) - deadlocksBefore).as("deadlocks; %s", why).isZero();
      assertThat(logs.events().stream().map(ConcurrentOrders::text))
          .as("a deadlock logged; %s", why)
          .noneMatch(
              line ->
                  line.contains("40P01")
                      || line.toLowerCase(Locale.ROOT).contains("deadlock")
                      || line.contains("CannotAcquireLock")
                      || line.contains("PessimisticLocking"));
    } finally {
      once.setLevel(onceLevel);
    }

    Map<String, Long> held = new LinkedHashMap<>();
    for (int i = 0; i < ORDERS; i++) {
      String order = orders.get(i);
      String status = shop.status(order);
      assertThat(status).as("%s; %s", order, why).isIn("reserved", "rejected");
      Map<String, String> states = shop.reservations(order);
      assertThat(states.keySet()).as("%s; %s", order, why).isEqualTo(wanted.get(i).keySet());
      assertThat(states.values())
          .as("%s whole or nothing; %s", order, why)
          .containsOnly(status.equals("reserved") ? "held" : "rejected");
      assertThat(events(jdbc, order, ShopEvents.STOCK_RESERVED))
          .as("%s stock.reserved; %s", order, why)
          .isEqualTo(status.equals("reserved") ? 1 : 0);
      assertThat(events(jdbc, order, ShopEvents.STOCK_REJECTED))
          .as("%s stock.rejected; %s", order, why)
          .isEqualTo(status.equals("rejected") ? 1 : 0);
      if (status.equals("reserved")) {
        wanted.get(i).forEach((sku, quantity) -> held.merge(sku, quantity, Long::sum));
      }
    }
    for (String sku : skus) {
      OrderFixture.Stock stock = shop.stock(sku);
      assertThat(stock.available() + stock.reserved()).as("%s; %s", sku, why).isEqualTo(UNITS);
      assertThat(stock.reserved()).as("%s; %s", sku, why).isEqualTo(held.getOrDefault(sku, 0L));
    }
    assertThat(
            jdbc.sql(
                    """
                    SELECT count(*) FROM once.inbox i JOIN once.outbox o ON o.message_id = i.message_id
                    WHERE o.aggregate_id IN (:orders)
                    GROUP BY i.message_id, i.consumer HAVING count(*) > 1
                    """)
                .param("orders", orders)
                .query(Long.class)
                .list())
        .as("an event applied twice by one consumer")
        .isEmpty();
  }

  /**
   * PostgreSQL's count of deadlocks detected in the shop's database. A backend reports it when it
   * goes idle, so a deadlock of the last moments may not be counted yet: the logs are the sure
   * check, this one a second look.
   */
  private static long deadlocks(JdbcClient jdbc) {
    return jdbc.sql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        .query(Long.class)
        .single();
  }

  private static long events(JdbcClient jdbc, String order, String type) {
    return jdbc.sql("SELECT count(*) FROM once.outbox WHERE aggregate_id = :order AND type = :type")
        .param("order", order)
        .param("type", type)
        .query(Long.class)
        .single();
  }

  private static String text(ILoggingEvent event) {
    String thrown = event.getThrowableProxy() == null ? "" : event.getThrowableProxy().getMessage();
    return event.getFormattedMessage() + " " + thrown;
  }

  /** Posts every order on its own thread, all released at once; each within a minute. */
  private static List<ShopResponse> race(
      List<Map<String, Long>> wanted, TestClient client, String account) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(wanted.size());
    CountDownLatch ready = new CountDownLatch(wanted.size());
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<ShopResponse>> futures = new ArrayList<>();
      for (Map<String, Long> lines : wanted) {
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  assertThat(go.await(60, TimeUnit.SECONDS)).as("released").isTrue();
                  return client.post("/v1/orders", OrderFixture.orderBody(account, lines));
                }));
      }
      assertThat(ready.await(60, TimeUnit.SECONDS)).as("all threads ready").isTrue();
      go.countDown();
      List<ShopResponse> placed = new ArrayList<>();
      for (Future<ShopResponse> future : futures) {
        try {
          placed.add(future.get(60, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
          throw new AssertionError("an order was not placed within a minute (stuck?)", e);
        }
      }
      return placed;
    } finally {
      pool.shutdownNow();
    }
  }
}
