package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.stats.Percentiles;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Phase {@code orders}: {@code POST /v1/orders} on {@code --order-products} hot products from
 * {@code --order-connections} connections, relay and consumers on, on each transport {@code
 * --kafka} asks for (in process; with {@code --kafka} through Kafka; with {@code --kafka=both} in
 * process, then through Kafka, the same load on each): place to reserved p50/p99 ({@code
 * orders.reserved_at - created_at}) of the orders placed in the measured window, where they waited
 * hop by hop, and the 503s; with both transports, their HTTP rates' ratio.
 */
final class OrdersPhase {
  private final RelayRun run;

  OrdersPhase(RelayRun run) {
    this.run = run;
  }

  void run() throws Exception {
    List<Double> rates = new ArrayList<>();
    for (Transport transport : run.options.orderTransports()) {
      rates.add(measure(transport));
    }
    if (rates.size() == 2) {
      run.table.reported(
          "orders: HTTP rate, Kafka / in process", f("%.2f", rates.get(1) / rates.get(0)));
    }
  }

  /** One transport's load: its rows of the table; its orders/s. */
  private double measure(Transport transport) throws Exception {
    run.relayOnShop(transport);
    run.awaitBacklog(Duration.ofMinutes(2), "before the orders");
    int connections = run.options.orderConnections();
    int products = run.options.orderProducts();
    BackgroundLoad.Window w;
    try (BackgroundLoad load =
        BackgroundLoad.orders(
            run.port, run.apiKey, connections, List.copyOf(run.accounts), run.skus(products))) {
      w = load.window(run.options.warmup() * 1000L, run.options.seconds() * 1000L);
    }
    long t = System.nanoTime();
    long placed = OrderSql.awaitNonePlaced(run.sql::number, Duration.ofSeconds(120), run::progress);
    double drain = (System.nanoTime() - t) / 1e9;
    List<Double> reserved = OrderSql.placeToReserved(run.sql, w.start(), w.end());
    long rejected = run.sql.number(OrderSql.REJECTED_SINCE, Timestamp.from(w.start()));
    OrderSql.Hops hops = OrderSql.hops(run.sql, w.start(), w.end());
    double p50 = Percentiles.of(reserved, 0.50);
    double p99 = Percentiles.of(reserved, 0.99);
    String measure =
        f("orders at %d connections (%d products), %s", connections, products, transport);
    run.table.goal(
        measure + ": place -> reserved p99 (p50)",
        f(
            "%.2f s (%.2f s), %d orders in %.0f s = %.0f/s; all reserved %s after the load;"
                + " %d rejected",
            p99,
            p50,
            reserved.size(),
            w.seconds(),
            w.rate(),
            placed == 0 ? f("%.1f s", drain) : f("NOT (%d still placed after 120 s)", placed),
            rejected),
        "< 2 s",
        p99 < 2 && placed == 0);
    run.table.reported(measure + ": where they waited", hops.describe());
    BackgroundLoad.Counts counts = w.counts();
    run.table.reported(
        measure + ": 503 answers (load shedding) in the measured window",
        f(
            "%d 503, %d other non-201, %d failed (of %d answers)",
            counts.shed(),
            counts.other(),
            counts.errors(),
            counts.created() + counts.shed() + counts.other()));
    run.progress(
        f("  orders %s: p99 %.2f s, %d 503; %s", transport, p99, counts.shed(), hops.describe()));
    return w.rate();
  }
}
