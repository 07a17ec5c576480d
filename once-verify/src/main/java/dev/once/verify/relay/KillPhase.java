package dev.once.verify.relay;

import static dev.once.verify.relay.Prefill.PENDING_PAYMENTS;
import static dev.once.verify.relay.Prefill.PENDING_ROWS;
import static dev.once.verify.relay.Prefill.RELEASE;
import static dev.once.verify.relay.Prefill.like;
import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.ChildProcess;
import dev.once.verify.harness.ShopProcess;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Phase {@code kill}: the running shop is stopped, a fresh shop process starts on the same
 * database, is killed with SIGKILL while it delivers {@code --kill-rows} rows, and is started
 * again: how long after the kill every row is delivered.
 */
final class KillPhase {
  private static final String TAG = "kill";
  private static final Duration LIMIT = Duration.ofSeconds(150);

  private final RelayRun run;
  private final int rows;
  private PgCounters pg;
  private double startSeconds;
  private double restartSeconds;
  private long inFlight;
  private long pendingAtKill;
  private long pendingRowsAtKill;
  private double killedAt;
  private Double allRows;
  private long pending = -1;
  private long pendingRows = -1;

  KillPhase(RelayRun run) {
    this.run = run;
    this.rows = run.options.killRows();
  }

  /**
   * The killed shop's and its restart's JVM option: C1 only, so that the JVM starts in about half
   * the time on two cores, as the in-process benchmark's child shops and chaos's shops did; what is
   * measured after the restart is the relay's redelivery, not the JIT's warm-up.
   */
  static final List<String> START_FAST = List.of(ChildProcess.QUICK_START);

  void run() throws Exception {
    Prefill.prefill(run.sql, run.accounts, TAG, rows, null);
    run.closeShop(); // only the shops started here may deliver from now on
    run.progress("  shop stopped; starting a fresh shop process on the same database");
    try (PgCounters counters = run.counters()) {
      pg = counters;
      long killed = startAndKill();
      try {
        ShopProcess second = run.startShop(true, List.of(), START_FAST);
        restartSeconds = (System.nanoTime() - killed) / 1e9;
        run.progress(
            f("  restarted shop %d healthy %.1f s after the kill", second.pid(), restartSeconds));
        awaitDelivered(killed);
      } finally {
        run.closeShop();
      }
      report();
    }
  }

  /** Starts the first shop, releases the rows, kills it {@code --kill-after} s later: then. */
  private long startAndKill() throws Exception {
    long t = System.nanoTime();
    ShopProcess first = run.startShop(true, List.of(), START_FAST);
    startSeconds = (System.nanoTime() - t) / 1e9;
    run.progress(f("  shop %d healthy in %.1f s", first.pid(), startSeconds));
    pg.row(RELEASE, like(TAG));
    Thread.sleep(run.options.killAfter() * 1000L);
    inFlight = inFlight();
    first.kill();
    long killed = System.nanoTime();
    run.closeShop();
    killedAt = pg.row("SELECT extract(epoch FROM clock_timestamp())::float8")[0];
    pendingAtKill = pg.number(PENDING_PAYMENTS, like(TAG));
    pendingRowsAtKill = pg.number(PENDING_ROWS, like(TAG));
    run.progress(
        f(
            "  SIGKILL: %d of %d payments settled, %d rows pending (%d claimed by the killed"
                + " shop just before); starting it again",
            rows - pendingAtKill, rows, pendingRowsAtKill, inFlight));
    return killed;
  }

  private void awaitDelivered(long killed) throws Exception {
    long deadline = killed + LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      double since = (System.nanoTime() - killed) / 1e9;
      pending = pg.number(PENDING_PAYMENTS, like(TAG));
      pendingRows = pg.number(PENDING_ROWS, like(TAG));
      if (pendingRows == 0 && pending == 0) {
        allRows = since;
        return;
      }
      Thread.sleep(250); // polling the relay's progress
    }
  }

  /** Rows of the tag claimed under a running lease (today's columns; -1 if they are gone). */
  private long inFlight() {
    try {
      return pg.number(
          "SELECT count(*) FROM once.outbox WHERE state = 'pending' AND aggregate_id LIKE ?"
              + " AND lease_until > now()",
          like(TAG));
    } catch (SQLException e) {
      return -1;
    }
  }

  private void report() throws SQLException {
    double lastSettled =
        pg.row(
                "SELECT coalesce(extract(epoch FROM max(updated_at))::float8 - ?, 0) FROM payment"
                    + " WHERE id LIKE ? AND status <> 'pending'",
                killedAt,
                like(TAG))[0];
    run.table.goal(
        "rows of a killed shop (SIGKILL) redelivered after its restart",
        f(
            "%s after the kill (last payment settled %.1f s after it; shop start %.1f s,"
                + " restart healthy %.1f s after the kill; at the kill %d of %d payments"
                + " pending, %d rows pending, %s claimed)",
            allRows == null
                ? f("NOT all: %d payments, %d rows still pending 150 s", pending, pendingRows)
                : f("all rows delivered %.1f s", allRows),
            lastSettled,
            startSeconds,
            restartSeconds,
            pendingAtKill,
            rows,
            pendingRowsAtKill,
            inFlight < 0 ? "n/a" : String.valueOf(inFlight)),
        "all within 15 s of the kill",
        allRows != null && allRows <= 15);
    run.progress(f("  all delivered %s s after the kill", allRows));
  }
}
