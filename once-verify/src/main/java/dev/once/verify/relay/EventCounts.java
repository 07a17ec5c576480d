package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.load.CpuClock;
import dev.once.verify.system.ProcessCpu;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 38's counts per event of a drain: what PostgreSQL and the shop did in a window from just
 * before the relay-on shop starts to just after it closed, divided by the events it delivered (two
 * per order). Both ends are read while no session of the shop is connected, so every session has
 * flushed its counters to the shared statistics (a session does as it ends); the window holds the
 * shop's start, the drain, its idle background and its close, none of them subtracted. The
 * benchmark's own statements in the shop's database (its polls and the table counters, over {@link
 * PgCounters}' counted connection) are subtracted exactly.
 *
 * <ul>
 *   <li>commits and rollbacks of the shop's database ({@code pg_stat_database}), row writes ({@code
 *       n_tup_ins + n_tup_upd + n_tup_del} of once.outbox, once.inbox and every table);
 *   <li>statements ({@code pg_stat_statements} calls, when preloaded) and WAL fsyncs, records and
 *       KiB ({@code pg_stat_wal}, cluster-wide): {@link ServerStats};
 *   <li>CPU of PostgreSQL over the window (the postmaster's, its reaped and its live children's,
 *       from /proc in 10 ms ticks); CPU of the shop's process from its readiness to just before its
 *       SIGTERM (its JVM's start-up, mostly the JIT's, left out): measured by the caller;
 *   <li>the relay's meters and the Kafka clients' requests, from the shop's {@link ShopMeters} just
 *       before it closes (its meters start with it).
 * </ul>
 */
final class EventCounts implements AutoCloseable {
  private final RelayRun run;
  private final PgCounters pg;
  private final ServerStats server;
  private final CpuClock postgresCpu;

  private EventCounts(RelayRun run, PgCounters pg, ServerStats server) {
    this.run = run;
    this.pg = pg;
    this.server = server;
    this.postgresCpu = ProcessCpu.withReapedChildren(run.db.postmasterPid());
  }

  static EventCounts open(RelayRun run) throws SQLException {
    PgCounters pg = run.counters();
    try {
      return new EventCounts(
          run, pg, new ServerStats(run.db.connectAsSuperuser("postgres"), BenchDatabase.DATABASE));
    } catch (SQLException | RuntimeException e) {
      pg.close();
      throw e;
    }
  }

  /** Null if statements are counted, else why they are n/a. */
  String statementsMissing() {
    return server.statementsMissing();
  }

  /** A count in the shop's database over the counted connection, for polls inside a window. */
  long number(String sql, Object... params) throws SQLException {
    return pg.number(sql, params);
  }

  /** The counters at one moment. */
  private record Snapshot(
      PgCounters.Database db,
      ServerStats.Wal wal,
      long statements,
      Map<String, PgCounters.Table> tables,
      long postgresCpu,
      long ownCommits,
      long ownRollbacks,
      long nanos) {
    long writes(String table) {
      PgCounters.Table t = tables.get(table);
      return t == null ? 0 : t.writes();
    }
  }

  /** Starts a window, pg_stat_statements' entries forgotten, once no shop is connected. */
  Window start() throws Exception {
    server.resetStatements();
    return new Window(snapshot());
  }

  /**
   * The counters with no shop connected: the table counters, then this connection's own counts
   * flushed ({@code pg_stat_force_next_flush()} acts as its statement ends), then the rest.
   */
  private Snapshot snapshot() throws Exception {
    server.awaitNoSessions(run.login.appUser());
    Map<String, PgCounters.Table> tables = pg.tables();
    pg.forceNextFlush();
    return new Snapshot(
        pg.database(),
        server.wal(),
        server.statements(),
        tables,
        postgresCpu.cpuNanos(),
        pg.ownCommits(),
        pg.ownRollbacks(),
        System.nanoTime());
  }

  /** An open window: its first snapshot. */
  final class Window {
    private final Snapshot before;

    private Window(Snapshot before) {
      this.before = before;
    }

    /**
     * Ends the window once the shop has closed: its counts.
     *
     * @param events events the shop delivered in it (0 for a shop with nothing to deliver)
     * @param shopCpuNanos the shop's CPU from its readiness to just before it closed, or -1
     * @param meters the shop's meters just before it closed
     */
    Counts end(long events, long shopCpuNanos, ShopMeters meters) throws Exception {
      Snapshot after = snapshot();
      long ownCommits = after.ownCommits - before.ownCommits;
      long ownRollbacks = after.ownRollbacks - before.ownRollbacks;
      Map<String, Double> t = new LinkedHashMap<>();
      t.put("commits", (double) (after.db.commits() - before.db.commits() - ownCommits));
      t.put("rollbacks", (double) (after.db.rollbacks() - before.db.rollbacks() - ownRollbacks));
      t.put(
          "statements",
          after.statements < 0
              ? Double.NaN
              : after.statements - before.statements - ownCommits - ownRollbacks);
      t.put("WAL fsyncs", (double) (after.wal.syncs() - before.wal.syncs()));
      t.put("WAL records", (double) (after.wal.records() - before.wal.records()));
      t.put("WAL KiB", (after.wal.bytes() - before.wal.bytes()) / 1024.0);
      t.put("row writes once.outbox", (double) (after.writes("outbox") - before.writes("outbox")));
      t.put("row writes once.inbox", (double) (after.writes("inbox") - before.writes("inbox")));
      t.put(
          "row writes all tables",
          (double) (after.writes(PgCounters.ALL_TABLES) - before.writes(PgCounters.ALL_TABLES)));
      t.put("CPU ms shop", shopCpuNanos < 0 ? Double.NaN : shopCpuNanos / 1e6);
      t.put(
          "CPU ms PostgreSQL",
          before.postgresCpu < 0 || after.postgresCpu < 0
              ? Double.NaN
              : (after.postgresCpu - before.postgresCpu) / 1e6);
      t.put(
          "Kafka requests",
          meters.get("kafka_producer_request_total") + meters.get("kafka_consumer_request_total"));
      t.put("relay commits", meters.get("once_outbox_relay_commits_total"));
      Map<String, Double> ratios = new LinkedHashMap<>();
      String relay = "once_outbox_relay_";
      ratios.put(
          "rows per claim", meters.ratio(relay + "claimed_rows_total", relay + "claims_total"));
      ratios.put("per batch", meters.ratio(relay + "batched_rows_total", relay + "batches_total"));
      ratios.put(
          "per completion",
          meters.ratio(relay + "completed_rows_total", relay + "completions_total"));
      return new Counts(
          events, (after.nanos - before.nanos) / 1e9, t, ratios, server.top(8, events));
    }
  }

  /**
   * One window's counts.
   *
   * @param totals each count over the window, by name, in the order they print (NaN: n/a)
   * @param ratios the relay's rows per claim, per batch and per completion (not per event)
   * @param top the statements with the most calls, per event
   */
  record Counts(
      long events,
      double seconds,
      Map<String, Double> totals,
      Map<String, Double> ratios,
      List<String> top) {

    double perEvent(String name) {
      return totals.get(name) / events;
    }

    /** One line: each count per event, then the ratios; totals for a window without events. */
    String summary() {
      List<String> parts = new ArrayList<>();
      totals.forEach(
          (name, total) ->
              parts.add(
                  name
                      + " "
                      + (Double.isNaN(total)
                          ? "n/a"
                          : events == 0 ? f("%,.0f", total) : f("%.3f", total / events))));
      List<String> relay = new ArrayList<>();
      ratios.forEach(
          (name, ratio) ->
              relay.add(name + " " + (Double.isNaN(ratio) ? "n/a" : f("%.1f", ratio))));
      return String.join(", ", parts)
          + "; "
          + String.join(", ", relay)
          + f(" (%s; window %.1f s)", events == 0 ? "totals" : f("%,d events", events), seconds);
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      pg.close();
    } finally {
      server.close();
    }
  }
}
