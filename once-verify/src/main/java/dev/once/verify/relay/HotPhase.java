package dev.once.verify.relay;

import static dev.once.verify.relay.Prefill.PENDING_PAYMENTS;
import static dev.once.verify.relay.Prefill.RELEASE;
import static dev.once.verify.relay.Prefill.SETTLED;
import static dev.once.verify.relay.Prefill.like;
import static dev.once.verify.relay.RelayTable.f;

import java.time.Duration;

/** Phase {@code hot}: {@code --hot-rows} pre-filled rows of one aggregate, delivered in order. */
final class HotPhase {
  private HotPhase() {}

  static void run(RelayRun run) throws Exception {
    int rows = run.options.hotRows();
    String tag = "hot";
    Prefill.prefill(run.sql, run.accounts, tag, rows, "bench.hot-aggregate");
    try (PgCounters pg = run.counters()) {
      double releasedAt = pg.row(RELEASE, like(tag))[1];
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long pending = rows;
      while (System.nanoTime() < deadline) {
        Thread.sleep(250); // polling the relay's progress
        pending = pg.number(PENDING_PAYMENTS, like(tag));
        if (pending == 0) {
          break;
        }
      }
      double[] drained = pg.row(SETTLED, releasedAt, like(tag));
      long delivered = (long) drained[0];
      double seconds = drained[1];
      run.table.reported(
          f("one hot aggregate: %,d provider.charge rows sharing one aggregate_id", rows),
          f(
              "%.0f rows/s (%,d delivered in %.1f s%s)",
              delivered / seconds,
              delivered,
              seconds,
              pending == 0 ? "" : f("; %d still pending after 3 minutes", pending)));
      run.progress(f("  %.0f rows/s, %d delivered", delivered / seconds, delivered));
    }
  }
}
