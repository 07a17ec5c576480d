package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.stats.Percentiles;
import java.time.Duration;
import java.util.List;

/**
 * Phase {@code paced}: commit to consumer effect at a low load. {@code --paced} orders a second on
 * {@code --products} hot products, from 4 threads that each take the next slot of one fixed
 * schedule, relay and consumers on, in process and then through Kafka: after a 3 s warm-up, {@code
 * created_at -> reserved_at} p50/p99 of the orders placed in {@code --paced-seconds}. A load far
 * below what either transport drains, so what it shows is what batching may add when there is
 * little to batch (a poll's wait); reported, no goal.
 */
final class PacedPhase {
  private static final long WARMUP_MILLIS = 3_000;

  private final RelayRun run;

  PacedPhase(RelayRun run) {
    this.run = run;
  }

  void run() throws Exception {
    for (Transport transport : Transport.values()) {
      measure(transport);
    }
  }

  private void measure(Transport transport) throws Exception {
    run.relayOnShop(transport);
    run.awaitBacklog(Duration.ofMinutes(2), "before the paced orders");
    int rate = run.options.paced();
    BackgroundLoad.Window w;
    try (BackgroundLoad load =
        BackgroundLoad.pacedOrders(
            run.port,
            run.apiKey,
            rate,
            List.copyOf(run.accounts),
            run.skus(run.options.products()))) {
      w = load.window(WARMUP_MILLIS, run.options.pacedSeconds() * 1000L);
    }
    long placed = OrderSql.awaitNonePlaced(run.sql::number, Duration.ofSeconds(60), run::progress);
    List<Double> reserved = OrderSql.placeToReserved(run.sql, w.start(), w.end());
    double p50 = Percentiles.of(reserved, 0.50) * 1000;
    double p99 = Percentiles.of(reserved, 0.99) * 1000;
    run.table.reported(
        f(
            "commit -> effect at %d orders/s (%d products), %s: created_at -> reserved_at p50 /"
                + " p99",
            rate, run.options.products(), transport),
        f(
            "%.0f ms / %.0f ms (%d orders at %.1f/s; %d 503, %d other non-201)%s",
            p50,
            p99,
            reserved.size(),
            w.rate(),
            w.counts().shed(),
            w.counts().other() + w.counts().errors(),
            placed == 0 ? "" : f("; %d still placed 60 s after", placed)));
    run.progress(f("  paced %s: p50 %.0f ms, p99 %.0f ms", transport, p50, p99));
  }
}
