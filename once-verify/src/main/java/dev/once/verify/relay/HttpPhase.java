package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.stats.Percentiles;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Phase {@code http}: HTTP new payments with the relay on, then on a shop restarted on the same
 * database with the relay off (per round); the ratio, the outbox backlog sampled every 250 ms and
 * commit-to-settled of the relay-on window.
 */
final class HttpPhase {
  private final RelayRun run;
  private final List<Double> on = new ArrayList<>();
  private final List<Double> off = new ArrayList<>();
  private final List<Double> settled = new ArrayList<>();
  private long maxBacklog;
  private double meanBacklog;
  private long shed;
  private long other;
  private long stillPending;

  HttpPhase(RelayRun run) {
    this.run = run;
  }

  record Window(
      double rate,
      BackgroundLoad.Counts counts,
      Instant start,
      Instant end,
      long maxBacklog,
      double meanBacklog) {}

  void run() throws Exception {
    int rounds = run.options.rounds();
    for (int round = 1; round <= rounds; round++) {
      relayOnRound(round);
      run.restartShop(false);
      Window o = paymentWindow(run, false);
      off.add(o.rate);
      shed += o.counts.shed();
      other += o.counts.other() + o.counts.errors();
      run.progress(f("  round %d relay off: %.0f/s", round, o.rate));
    }
    // Back to a relay-on shop for the other phases; it first delivers what the relay-off load left.
    run.restartShop(true);
    long leftover = run.awaitBacklog(Duration.ofMinutes(5), "the relay-off load's rows");
    run.progress(f("  the relay-off load's rows delivered in %.1f s", leftover / 1e3));
    report();
  }

  private void relayOnRound(int round) throws Exception {
    if (!run.relayOn()) {
      run.restartShop(true);
    }
    run.awaitBacklog(Duration.ofMinutes(5), "before the relay-on load");
    Window w = paymentWindow(run, true);
    on.add(w.rate);
    maxBacklog = Math.max(maxBacklog, w.maxBacklog);
    meanBacklog += w.meanBacklog / run.options.rounds();
    shed += w.counts.shed();
    other += w.counts.other() + w.counts.errors();
    long drain = run.awaitBacklog(Duration.ofMinutes(2), "after the relay-on load");
    Timestamp from = Timestamp.from(w.start);
    Timestamp to = Timestamp.from(w.end);
    settled.addAll(
        run.sql.doubles(
            "SELECT extract(epoch FROM updated_at - created_at)::float8 FROM payment"
                + " WHERE created_at >= ? AND created_at < ? AND status <> 'pending'",
            from,
            to));
    stillPending +=
        run.sql.number(
            "SELECT count(*) FROM payment"
                + " WHERE created_at >= ? AND created_at < ? AND status = 'pending'",
            from,
            to);
    run.progress(
        f(
            "  round %d relay on: %.0f/s, backlog max %d mean %.0f, drained %d ms after",
            round, w.rate, w.maxBacklog, w.meanBacklog, drain));
  }

  /** A warm-up, then the measured window, of new payments on the running shop. */
  static Window paymentWindow(RelayRun run, boolean sampleBacklog) throws Exception {
    try (BackgroundLoad load = run.payments()) {
      Thread.sleep(run.options.warmup() * 1000L);
      BackgroundLoad.Counts before = load.counts();
      Instant start = Instant.now();
      long t0 = System.nanoTime();
      long[] backlog = run.sample(run.options.seconds(), sampleBacklog);
      BackgroundLoad.Counts counts = load.counts().minus(before);
      double seconds = (System.nanoTime() - t0) / 1e9;
      Instant end = Instant.now();
      return new Window(
          counts.created() / seconds,
          counts,
          start,
          end,
          backlog[0],
          backlog[2] == 0 ? 0 : backlog[1] / (double) backlog[2]);
    }
  }

  private void report() {
    RelayOptions options = run.options;
    double medianOn = Percentiles.median(on);
    double ratio = medianOn / Percentiles.median(off);
    run.table.goal(
        "HTTP new payments, relay on / relay off (" + options.connections() + " connections)",
        f(
            "%.2f (on %s/s, off %s/s%s)",
            ratio,
            RelayTable.rates(on),
            RelayTable.rates(off),
            options.rounds() > 1 ? ", medians of " + options.rounds() + " rounds" : ""),
        ">= 0.80",
        ratio >= 0.80);
    Collections.sort(settled);
    double p50 = Percentiles.of(settled, 0.50) * 1000;
    double p99 = Percentiles.of(settled, 0.99) * 1000;
    run.table.goal(
        "commit-to-settled under full HTTP load, p99 (p50)",
        f(
            "%.0f ms (%.0f ms), %d payments%s",
            p99,
            p50,
            settled.size(),
            stillPending == 0 ? "" : f(", %d still pending after the drain", stillPending)),
        "< 500 ms",
        p99 < 500 && stillPending == 0);
    run.table.goal(
        "outbox backlog under that load, max / mean (samples every 250 ms)",
        f("%d / %.0f rows", maxBacklog, meanBacklog),
        f("bounded: max <= 1 s of appends (%.0f rows)", medianOn),
        maxBacklog <= medianOn);
    run.table.reported(
        "HTTP answers other than 201 in the http phase",
        f("%d 503 (shed), %d other or failed", shed, other));
  }
}
