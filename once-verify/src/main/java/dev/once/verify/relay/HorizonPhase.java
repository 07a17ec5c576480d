package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.stats.Percentiles;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Phase {@code horizon}: HTTP new payments while another session holds a transaction with an xid
 * open for {@code --hold} seconds: relay rows/s before, during and after.
 */
final class HorizonPhase {
  private final RelayRun run;
  private final List<Instant> bounds = new ArrayList<>();
  private final List<BackgroundLoad.Counts> counts = new ArrayList<>();
  private final List<Long> maxBacklog = new ArrayList<>();
  private long deadTuples = -1;

  HorizonPhase(RelayRun run) {
    this.run = run;
  }

  void run() throws Exception {
    run.awaitBacklog(Duration.ofMinutes(2), "before the horizon load");
    int window = run.options.horizonWindow();
    try (BackgroundLoad load = run.payments()) {
      Thread.sleep(run.options.warmup() * 1000L);
      BackgroundLoad.Counts c = load.counts();
      bounds.add(Instant.now());
      maxBacklog.add(run.sample(window, true)[0]);
      counts.add(load.counts().minus(c));
      c = load.counts();
      bounds.add(Instant.now());
      holdTransaction();
      counts.add(load.counts().minus(c));
      c = load.counts();
      bounds.add(Instant.now());
      maxBacklog.add(run.sample(window, true)[0]);
      counts.add(load.counts().minus(c));
      bounds.add(Instant.now());
    }
    run.awaitBacklog(Duration.ofMinutes(3), "after the horizon load");
    report();
  }

  /** Another session (the owner's) takes an xid and holds its transaction {@code --hold} s. */
  private void holdTransaction() throws Exception {
    try (Connection held = run.db.connectAsOwner(BenchDatabase.DATABASE)) {
      held.setAutoCommit(false);
      long xid;
      try (Statement s = held.createStatement();
          ResultSet rs = s.executeQuery("SELECT txid_current()")) {
        rs.next();
        xid = rs.getLong(1);
      }
      run.progress("  transaction " + xid + " open for " + run.options.hold() + " s");
      maxBacklog.add(run.sample(run.options.hold(), true)[0]);
      deadTuples = outboxDeadTuples();
      held.commit();
    }
  }

  private long outboxDeadTuples() {
    try {
      return run.sql.number(
          "SELECT n_dead_tup FROM pg_stat_user_tables WHERE schemaname = 'once'"
              + " AND relname = 'outbox'");
    } catch (SQLException e) {
      return -1;
    }
  }

  private void report() throws SQLException {
    List<String> names = List.of("before", "during (held " + run.options.hold() + " s)", "after");
    StringBuilder value = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      Timestamp from = Timestamp.from(bounds.get(i));
      Timestamp to = Timestamp.from(bounds.get(i + 1));
      double seconds = Duration.between(bounds.get(i), bounds.get(i + 1)).toMillis() / 1e3;
      long settled =
          run.sql.number(
              "SELECT count(*) FROM payment WHERE updated_at >= ? AND updated_at < ?"
                  + " AND status <> 'pending' AND position('.' IN id) = 0",
              from,
              to);
      List<Double> latency =
          run.sql.doubles(
              "SELECT extract(epoch FROM updated_at - created_at)::float8 FROM payment"
                  + " WHERE created_at >= ? AND created_at < ? AND status <> 'pending'"
                  + " AND position('.' IN id) = 0 ORDER BY 1",
              from,
              to);
      value.append(
          f(
              "%s%s: relay %.0f rows/s, HTTP %.0f/s, backlog max %d, commit-to-settled p99 %.0f"
                  + " ms",
              i == 0 ? "" : "; ",
              names.get(i),
              settled / seconds,
              counts.get(i).created() / seconds,
              maxBacklog.get(i),
              Percentiles.of(latency, 0.99) * 1000));
    }
    if (deadTuples >= 0) {
      value.append(f("; once.outbox n_dead_tup at the end of the hold: %,d", deadTuples));
    }
    run.table.reported(
        f(
            "relay rows/s under HTTP load (%d connections), a transaction with an xid held open"
                + " %d s",
            run.options.connections(), run.options.hold()),
        value.toString());
    run.progress("  " + value);
  }
}
