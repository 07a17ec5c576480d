package dev.once.verify.bench;

import static dev.once.verify.bench.BenchRun.progress;

import dev.once.verify.bench.BenchRun.Tenant;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.OrderBodies;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.load.LoadResult;
import dev.once.verify.report.OrdersResult;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The orders scenario, on a fresh shop with the relay on, on database {@code shop_orders}: the
 * relay would otherwise also deliver the payments' outbox rows that the other scenarios leave
 * behind. First time: the database, a client, accounts as for the payments, and {@value #HOT_SKUS}
 * hot SKUs of {@value #HOT_STOCK} units each. Then the load, then the wait until the relay has
 * reserved every order, then the shop stops (so every one of its sessions has reported its
 * deadlocks to pg_stat_database) and the database is read ({@link OrderReadings}).
 */
final class OrdersScenario {
  /** The hot SKUs every order draws from. */
  static final int HOT_SKUS = 10;

  /** Units of each hot SKU: far more than any run orders, so no order is rejected. */
  static final long HOT_STOCK = 1_000_000_000L;

  /** How long the relay may take, after the load, to move every order out of {@code placed}. */
  static final Duration RESERVE_WAIT = Duration.ofSeconds(60);

  /** How often the database is asked meanwhile. */
  static final Duration RESERVE_POLL = Duration.ofMillis(200);

  private final BenchRun run;
  private final List<String> skus = new ArrayList<>();
  private Tenant tenant;

  OrdersScenario(BenchRun run) {
    this.run = run;
    for (int i = 0; i < HOT_SKUS; i++) {
      skus.add("hot-" + i);
    }
  }

  /** One run of the scenario with {@code connections} connections placing orders. */
  void run(int connections) throws Exception {
    String database = BenchDatabase.ORDERS_DATABASE;
    if (tenant == null) {
      progress("creating database " + database + " for the orders scenario");
      run.db.createDatabase(database);
    }
    progress("starting the shop on " + database + ", relay on (it reserves the stock)");
    run.startShop(
        database, true, "shop-orders-" + connections + "-" + run.round + ".log", List.of());
    setUp();
    OrderReadings readings = new OrderReadings(run.db, database);
    long deadlocksBefore = readings.deadlocks();
    Instant runStart = Instant.now();
    LoadResult load =
        run.scenario(
            run.runner(),
            Scenario.ORDERS,
            connections,
            run.http(tenant)
                .placeOrders(
                    run.tag("order" + connections), new OrderBodies(tenant.accounts(), skus)));
    // The window began once the workers were connected and warmed up: a few ms after this.
    Instant windowStart = runStart.plus(run.options.warmup());
    Instant windowEnd = windowStart.plusNanos(load.windowNanos());
    progress("  waiting up to " + RESERVE_WAIT.toSeconds() + " s until no order is placed");
    long drain =
        readings.awaitNonePlaced(RESERVE_WAIT, RESERVE_POLL, line -> progress("  " + line));
    run.closeShop("orders, relay on, " + connections + " connections");
    long deadlocksAfter = readings.deadlocks();
    long deadlocks =
        deadlocksBefore < 0 || deadlocksAfter < 0 ? -1 : deadlocksAfter - deadlocksBefore;
    String title =
        Scenario.ORDERS.title() + ", " + connections + " connections" + run.roundSuffix();
    OrdersResult r = readings.outcome(title, runStart, windowStart, windowEnd, drain, deadlocks);
    run.orders.add(r);
    progress(line(r, drain));
  }

  /**
   * The first round creates the client, its accounts and the hot products; later ones reuse them.
   */
  private void setUp() throws IOException {
    if (tenant != null) {
      run.firstRequest(tenant);
      return;
    }
    try (ShopApi api = new ShopApi(run.shop.port())) {
      Tenant created = run.setUp(api, "bench-orders");
      progress("creating " + HOT_SKUS + " products of " + HOT_STOCK + " units each over HTTP");
      for (String sku : skus) {
        api.createProduct(created.apiKey(), sku, "0.01", "EUR", HOT_STOCK);
      }
      tenant = created;
    }
  }

  /** The progress line of one orders run. */
  private static String line(OrdersResult r, long drain) {
    return String.format(
        Locale.ROOT,
        "  orders: %d placed, place to reserved p50 %s, p99 %s (%d measured), all reserved %s,"
            + " rejected %d, still placed %d, deadlocks %d, stock of %d products %s",
        r.orders(),
        millis(r.p50Nanos()),
        millis(r.p99Nanos()),
        r.measured(),
        drain < 0 ? "never" : "after " + drain + " ms",
        r.rejected(),
        r.stillPlaced(),
        r.deadlocks(),
        r.products(),
        r.stockProblems().isEmpty() ? "adds up" : "!!! " + r.stockProblems());
  }

  private static String millis(long nanos) {
    return nanos < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }
}
