package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.stats.Percentiles;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Phase {@code orders}: {@code POST /v1/orders} on 10 hot SKUs from {@code --order-connections}
 * connections; place to reserved ({@code orders.reserved_at - created_at}), 503s counted.
 */
final class OrdersPhase {
  private final RelayRun run;
  private BackgroundLoad.Counts counts;
  private Instant start;
  private Instant end;
  private double seconds;

  OrdersPhase(RelayRun run) {
    this.run = run;
  }

  void run() throws Exception {
    run.awaitBacklog(Duration.ofMinutes(2), "before the orders");
    int connections = run.options.orderConnections();
    load(connections);
    long t = System.nanoTime();
    long placed = -1;
    while (System.nanoTime() - t < Duration.ofSeconds(120).toNanos()) {
      placed = run.sql.number("SELECT count(*) FROM orders WHERE status = 'placed'");
      if (placed == 0) {
        break;
      }
      Thread.sleep(250); // polling the relay's progress
    }
    double drain = (System.nanoTime() - t) / 1e9;
    List<Double> reserved =
        run.sql.doubles(
            "SELECT extract(epoch FROM reserved_at - created_at)::float8 FROM orders"
                + " WHERE created_at >= ? AND created_at < ? AND reserved_at IS NOT NULL"
                + " ORDER BY 1",
            Timestamp.from(start),
            Timestamp.from(end));
    long rejected =
        run.sql.number(
            "SELECT count(*) FROM orders WHERE created_at >= ? AND status = 'rejected'",
            Timestamp.from(start));
    double p50 = Percentiles.of(reserved, 0.50);
    double p99 = Percentiles.of(reserved, 0.99);
    run.table.goal(
        f("orders at %d connections: place -> reserved p99 (p50)", connections),
        f(
            "%.2f s (%.2f s), %d orders in %.0f s = %.0f/s; all reserved %s after the load;"
                + " %d rejected",
            p99,
            p50,
            reserved.size(),
            seconds,
            counts.created() / seconds,
            placed == 0 ? f("%.1f s", drain) : f("NOT (%d still placed after 120 s)", placed),
            rejected),
        "< 2 s",
        p99 < 2 && placed == 0);
    run.table.reported(
        "orders: 503 answers (load shedding) in the measured window",
        f(
            "%d 503, %d other non-201, %d failed (of %d answers)",
            counts.shed(),
            counts.other(),
            counts.errors(),
            counts.created() + counts.shed() + counts.other()));
    run.progress(f("  orders p99 %.2f s, %d 503", p99, counts.shed()));
  }

  private void load(int connections) throws Exception {
    try (BackgroundLoad load =
        BackgroundLoad.orders(
            run.port, run.apiKey, connections, List.copyOf(run.accounts), RelayRun.SKUS)) {
      Thread.sleep(run.options.warmup() * 1000L);
      BackgroundLoad.Counts before = load.counts();
      start = Instant.now();
      long t0 = System.nanoTime();
      Thread.sleep(run.options.seconds() * 1000L);
      counts = load.counts().minus(before);
      seconds = (System.nanoTime() - t0) / 1e9;
      end = Instant.now();
    }
  }
}
