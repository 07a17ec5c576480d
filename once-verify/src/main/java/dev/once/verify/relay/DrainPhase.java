package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Phase {@code drain} (issues 23 and 38): {@code --orders} orders placed over HTTP from {@code
 * --connections} connections on {@code --products} hot products with the relay off, that shop
 * stopped, then a shop with the relay on and the transport under test started on them, until every
 * order is reserved; once in process, then through Kafka, on the same database, fresh orders each
 * time. For each transport: events per second (two per order) from the drain's first effect (its
 * first reservation row) to its last (its last order reserved), and, as measured up to issue 38's
 * third pass, from its first order reserved; their ratio, Kafka / in process, against issue 23's
 * goal (at least 0.70); the drain's counts per event ({@link EventCounts}), with those of the same
 * shop started with nothing to deliver (5 s, then closed) beside them, not subtracted; and, through
 * Kafka, issue 38's goals for commits and WAL fsyncs per event.
 */
final class DrainPhase {
  private static final Duration LIMIT = Duration.ofMinutes(10);
  private static final long IDLE_MILLIS = 5_000;

  private final RelayRun run;

  DrainPhase(RelayRun run) {
    this.run = run;
  }

  private record Drain(
      Transport transport,
      OrderSql.Drained drained,
      EventCounts.Counts counts,
      EventCounts.Counts idle) {
    double eventsPerSecond() {
      return 2 * drained.orders() / drained.seconds();
    }

    double fromFirstReserved() {
      return 2 * drained.orders() / drained.secondsFromFirstReserved();
    }
  }

  void run() throws Exception {
    try (EventCounts counts = EventCounts.open(run)) {
      String missing = counts.statementsMissing();
      run.table.header(
          "- drain: statements "
              + (missing == null ? "from pg_stat_statements (preloaded for the drain)" : missing));
      Drain in = drain(Transport.IN_PROCESS, counts);
      Drain kafka = drain(Transport.KAFKA, counts);
      report(in, kafka);
    }
  }

  private Drain drain(Transport transport, EventCounts counts) throws Exception {
    run.restartShop(false);
    Instant since = Instant.now();
    place(transport, since);
    run.closeShop();
    run.progress("  drain " + transport + ": relay on");
    EventCounts.Window window = counts.start();
    run.startShop(true, transport, List.of(), List.of());
    long cpu = run.shopCpuNanos();
    long placed = OrderSql.awaitNonePlaced(counts::number, LIMIT, run::progress);
    if (placed > 0) {
      throw new IllegalStateException(
          f(
              "drain %s: %d orders still placed %d minutes after the relay-on shop started (its"
                  + " log: %s)",
              transport, placed, LIMIT.toMinutes(), run.shopLog()));
    }
    long reserved = counts.number(OrderSql.RESERVED_SINCE, Timestamp.from(since));
    EventCounts.Counts drain = end(window, 2 * reserved, cpu);
    OrderSql.Drained drained = OrderSql.drained(run.sql, since);
    run.progress(
        f(
            "  drain %s: %,d reserved in %.1f s from the first reservation; per event: %s",
            transport, drained.orders(), drained.seconds(), drain.summary()));
    window = counts.start();
    run.startShop(true, transport, List.of(), List.of());
    cpu = run.shopCpuNanos();
    Thread.sleep(IDLE_MILLIS);
    EventCounts.Counts idle = end(window, 0, cpu);
    run.progress("  the same shop with nothing to deliver: " + idle.summary());
    return new Drain(transport, drained, drain, idle);
  }

  /** Places {@code --orders} orders on the running relay-off shop (a few more: the load's last). */
  private void place(Transport transport, Instant since) throws Exception {
    int orders = run.options.orders();
    run.progress(f("  drain %s: placing %d orders with the relay off", transport, orders));
    long deadline = System.nanoTime() + LIMIT.toNanos();
    try (BackgroundLoad load =
        BackgroundLoad.orders(
            run.port,
            run.apiKey,
            run.options.connections(),
            List.copyOf(run.accounts),
            run.skus(run.options.products()))) {
      while (run.sql.number(OrderSql.PLACED_SINCE, Timestamp.from(since)) < orders) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              f(
                  "drain %s: fewer than %d orders placed in %s (%s)",
                  transport, orders, LIMIT, load.counts()));
        }
        Thread.sleep(100); // polling the load's progress
      }
    }
  }

  /** Reads the shop's meters and CPU, closes it, and ends the window. */
  private EventCounts.Counts end(EventCounts.Window window, long events, long cpuAtReady)
      throws Exception {
    ShopMeters meters = ShopMeters.read(run.port);
    long cpu = run.shopCpuNanos();
    run.closeShop();
    return window.end(events, cpu < 0 || cpuAtReady < 0 ? -1 : cpu - cpuAtReady, meters);
  }

  private void report(Drain in, Drain kafka) {
    int products = run.options.products();
    for (Drain d : List.of(in, kafka)) {
      run.table.reported(
          f(
              "drain, %s (%d products): events/s from the first reservation to the last order"
                  + " reserved",
              d.transport, products),
          f(
              "%.0f events/s (%,d orders, 2 events each, in %.1f s); from the first order reserved,"
                  + " as measured before: %.0f events/s",
              d.eventsPerSecond(), d.drained.orders(), d.drained.seconds(), d.fromFirstReserved()));
    }
    double ratio = kafka.eventsPerSecond() / in.eventsPerSecond();
    run.table.goal(
        "drain: Kafka / in process",
        f(
            "%.2f (from the first order reserved, as measured before: %.2f)",
            ratio, kafka.fromFirstReserved() / in.fromFirstReserved()),
        ">= 0.70",
        ratio >= 0.70);
    for (Drain d : List.of(in, kafka)) {
      run.table.reported(f("drain, %s: per event", d.transport), d.counts.summary());
      run.table.reported(
          f(
              "drain, %s: the same shop with nothing to deliver, started, %d s, closed (not"
                  + " subtracted)",
              d.transport, IDLE_MILLIS / 1000),
          d.idle.summary());
      d.counts.top().forEach(line -> run.table.note("drain, " + d.transport + ": " + line));
    }
    double commits = kafka.counts.perEvent("commits");
    double syncs = kafka.counts.perEvent("WAL fsyncs");
    run.table.goal(
        "drain, Kafka: commits / WAL fsyncs per event (publish + consume)",
        f("%.3f / %.3f", commits, syncs),
        "<= 0.2 / <= 0.05",
        commits <= 0.2 && syncs <= 0.05);
  }
}
