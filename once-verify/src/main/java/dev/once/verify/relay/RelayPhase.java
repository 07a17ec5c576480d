package dev.once.verify.relay;

import static dev.once.verify.relay.Prefill.PENDING_PAYMENTS;
import static dev.once.verify.relay.Prefill.PENDING_ROWS;
import static dev.once.verify.relay.Prefill.RELEASE;
import static dev.once.verify.relay.Prefill.SETTLED;
import static dev.once.verify.relay.Prefill.SETTLED_PERCENTILES;
import static dev.once.verify.relay.Prefill.like;
import static dev.once.verify.relay.RelayTable.f;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Phase {@code relay}: the shop's relay alone drains {@code --rows} pre-filled {@code
 * provider.charge} rows; rows/s, and per delivered row the shop database's commits and rollbacks
 * ({@code pg_stat_database}) and the row writes of once.outbox and once.inbox ({@code
 * pg_stat_user_tables}), the benchmark's own statements subtracted ({@link PgCounters}).
 */
final class RelayPhase {
  private static final String TAG = "relay";

  private final RelayRun run;
  private final int rows;
  private PgCounters pg;
  private PgCounters.Database before;
  private Map<String, PgCounters.Table> tablesBefore;
  private long t0;
  private long ownCommits0;
  private long ownRollbacks0;
  private double idleRate;
  private long released;

  RelayPhase(RelayRun run) {
    this.run = run;
    this.rows = run.options.rows();
  }

  void run() throws Exception {
    long t = System.nanoTime();
    Prefill.prefill(run.sql, run.accounts, TAG, rows, null);
    run.progress(f("  %d rows pre-filled in %.1f s", rows, (System.nanoTime() - t) / 1e9));
    try (PgCounters counters = run.counters()) {
      pg = counters;
      countersBefore();
      double[] release = pg.row(RELEASE, like(TAG));
      released = (long) release[0];
      double releasedAt = release[1];
      long releasedNanos = System.nanoTime();
      run.progress(f("  %d rows released; the relay delivers them", released));
      awaitDelivered(run, pg, TAG, Duration.ofMinutes(10));
      double everything = (System.nanoTime() - releasedNanos) / 1e9;
      double[] drained = pg.row(SETTLED, releasedAt, like(TAG));
      double[] latency = pg.row(SETTLED_PERCENTILES, releasedAt, like(TAG));
      long delivered = (long) drained[0];
      double rate = delivered / drained[1];
      run.table.goal(
          f("relay alone: %,d provider.charge rows, fsync on", rows),
          f(
              "%.0f rows/s (%,d payments settled in %.1f s, and their events delivered after"
                  + " %.0f s; release to settled p50 %.1f s, p99 %.1f s)",
              rate, delivered, drained[1], everything, latency[0], latency[1]),
          ">= 2,000 rows/s",
          rate >= 2000 && delivered == rows);
      countersAfter(delivered, rate);
    }
  }

  /** Waits for every session's counters to be flushed, then measures the idle background. */
  private void countersBefore() throws Exception {
    boolean force = pg.forceNextFlush();
    run.progress(
        "  pg_stat_force_next_flush(): "
            + (force ? "callable (flushes only the calling session)" : "not callable")
            + "; waiting for every session's counters to be flushed");
    Thread.sleep(PgCounters.IDLE_FLUSH_MILLIS);
    PgCounters.Database idleStart = pg.database();
    long idleT0 = System.nanoTime();
    Thread.sleep(5_000);
    before = pg.database();
    t0 = System.nanoTime();
    ownCommits0 = pg.ownCommits();
    ownRollbacks0 = pg.ownRollbacks();
    idleRate = (before.commits() - idleStart.commits()) / ((t0 - idleT0) / 1e9);
    tablesBefore = pg.tables();
  }

  /**
   * Pre-fills {@code rows} rows tagged {@code tag}, releases them, and waits until they are
   * delivered: {payments settled, seconds from release to the last settlement}.
   */
  static double[] drain(RelayRun run, String tag, int rows) throws Exception {
    Prefill.prefill(run.sql, run.accounts, tag, rows, null);
    try (PgCounters pg = run.counters()) {
      double releasedAt = pg.row(RELEASE, like(tag))[1];
      awaitDelivered(run, pg, tag, Duration.ofMinutes(10));
      return pg.row(SETTLED, releasedAt, like(tag));
    }
  }

  private static void awaitDelivered(RelayRun run, PgCounters pg, String tag, Duration limit)
      throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    long nextReport = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      Thread.sleep(500); // polling the relay's progress; a benchmark, not a test
      long pending = pg.number(PENDING_PAYMENTS, like(tag));
      // then the events the settlements published, whose aggregate is the payment's id
      if (pending == 0 && pg.number(PENDING_ROWS, like(tag)) == 0) {
        return;
      }
      if (System.nanoTime() > nextReport) {
        run.progress(
            pending > 0
                ? f("  %d payments still pending", pending)
                : "  every payment settled; their events are still being delivered");
        nextReport = System.nanoTime() + 10_000_000_000L;
      }
    }
  }

  private void countersAfter(long delivered, double rate) throws Exception {
    run.progress("  waiting for every session's counters to be flushed");
    Thread.sleep(PgCounters.IDLE_FLUSH_MILLIS);
    PgCounters.Database after = pg.database();
    double window = (System.nanoTime() - t0) / 1e9;
    long ownCommits = pg.ownCommits() - ownCommits0;
    long ownRollbacks = pg.ownRollbacks() - ownRollbacks0;
    Map<String, PgCounters.Table> tablesAfter = pg.tables();
    long commits = after.commits() - before.commits() - ownCommits;
    long rollbacks = after.rollbacks() - before.rollbacks() - ownRollbacks;
    // Every settlement appends its payment's event (the orders consumer takes it), a second
    // delivered row: the rows the drain delivered are the charges and the events appended in it.
    PgCounters.Table outboxBefore = tablesBefore.get("outbox");
    PgCounters.Table outboxAfter = tablesAfter.get("outbox");
    long events =
        outboxBefore == null || outboxAfter == null
            ? 0
            : outboxAfter.minus(outboxBefore).inserted();
    long deliveredRows = delivered + events;
    double perRow = commits / (double) deliveredRows;
    run.table.goal(
        "commits per delivered row during the relay-alone drain (pg_stat_database)",
        f(
            "%.2f (%,d commits / %,d rows: %,d charges and %,d events; %.2f per payment;"
                + " %,d rollbacks; the bench's own %d statements subtracted; idle background"
                + " %.1f commits/s, about %.0f in the window, included)",
            perRow,
            commits,
            deliveredRows,
            delivered,
            events,
            commits / (double) delivered,
            rollbacks,
            ownCommits + ownRollbacks,
            idleRate,
            idleRate * window),
        "<= 1.2",
        perRow <= 1.2);
    tableWrites(tablesAfter, deliveredRows);
    run.progress(
        f(
            "  %.0f rows/s; %.2f commits/row (own %d), counters window %.0f s",
            rate, perRow, ownCommits, window));
  }

  private void tableWrites(Map<String, PgCounters.Table> tablesAfter, long deliveredRows)
      throws SQLException {
    for (String name : List.of("outbox", "inbox")) {
      PgCounters.Table a = tablesAfter.get(name);
      PgCounters.Table b = tablesBefore.get(name);
      if (a == null || b == null) {
        run.table.reported("row writes per delivered row, once." + name, "table not found");
        continue;
      }
      PgCounters.Table d = a.minus(b);
      if (name.equals("outbox")) {
        // the release's own updates (they change next_attempt_at, an indexed column: never HOT)
        d = new PgCounters.Table(d.inserted(), d.updated() - released, d.deleted(), d.hotUpdated());
      }
      double n = deliveredRows;
      run.table.reported(
          "row writes per delivered row, once." + name + " (pg_stat_user_tables)",
          f(
              "%.2f (ins %.2f + upd %.2f + del %.2f; HOT upd %.2f; per delivered outbox row)",
              d.writes() / n,
              d.inserted() / n,
              d.updated() / n,
              d.deleted() / n,
              d.hotUpdated() / n));
    }
  }
}
