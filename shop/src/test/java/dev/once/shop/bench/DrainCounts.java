package dev.once.shop.bench;

import static dev.once.shop.bench.BenchTable.f;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 38's counts per event of one drain (bench/batches.sh): what PostgreSQL, the JVM and the
 * Kafka clients did from just before the relay-on shop started to just after it closed, divided by
 * the events the drain delivered (two per order). The window holds the shop's start and close and
 * its idle background, which are not subtracted; the benchmark's own statements are.
 *
 * @param transport "in process" or "Kafka"
 * @param events events delivered: two per order reserved
 * @param seconds the window, from the first snapshot to the second
 * @param values per event by name (NaN: not measured), in the order they print
 * @param totals the totals behind them, by the same names
 * @param top the statements with the most calls, per event
 */
record DrainCounts(
    String transport,
    long events,
    double seconds,
    Map<String, Double> values,
    Map<String, Double> totals,
    List<String> top) {

  /** The names of {@link #values}, in order, with what each is. */
  static final Map<String, String> NAMES = new LinkedHashMap<>();

  static {
    NAMES.put("commits", "commits (pg_stat_database xact_commit, the bench's own subtracted)");
    NAMES.put("rollbacks", "rollbacks (pg_stat_database xact_rollback)");
    NAMES.put("statements", "statements (pg_stat_statements calls, BEGIN/COMMIT included)");
    NAMES.put(
        "walSyncs",
        "WAL fsyncs (pg_stat_wal wal_sync, every process, the walwriter's"
            + " included; commits waiting on one shared flush count once)");
    NAMES.put("walRecords", "WAL records (pg_stat_wal)");
    NAMES.put("walKiB", "WAL KiB (pg_stat_wal wal_bytes)");
    NAMES.put("writes.outbox", "row writes, once.outbox (n_tup_ins+upd+del)");
    NAMES.put("writes.inbox", "row writes, once.inbox (n_tup_ins+upd+del)");
    NAMES.put("writes.all", "row writes, every table (n_tup_ins+upd+del)");
    NAMES.put("cpu.jvm", "CPU ms, the JVM (shop, bench, and the broker when in the JVM)");
    NAMES.put("cpu.pg", "CPU ms, PostgreSQL (every process, /proc, 10 ms ticks)");
    NAMES.put("kafka.requests", "Kafka requests, producer + consumer (client metrics)");
    NAMES.put("kafka.producerRequests", "Kafka producer requests (request-total)");
    NAMES.put("kafka.consumerRequests", "Kafka consumer requests (request-total)");
    NAMES.put("kafka.fetches", "Kafka consumer fetches (fetch-total)");
    NAMES.put("kafka.offsetCommits", "Kafka consumer offset commits (commit-total)");
    NAMES.put("kafka.recordsPerProducerRequest", "records per producer request (not per event)");
    NAMES.put("kafka.recordsPerFetch", "records per consumer fetch (not per event)");
    NAMES.put("relay.rowsPerClaim", "rows per claim (relay meters, not per event)");
    NAMES.put(
        "relay.rowsPerBatch",
        "rows per batch handler call (once.outbox.relay.batched.rows / .batches, not per event)");
    NAMES.put(
        "relay.rowsPerCompletion",
        "rows per completion statement (once.outbox.relay.completed.rows / .completions, not per"
            + " event)");
    NAMES.put("relay.claims", "relay claims (once.outbox.relay.claims)");
    NAMES.put("relay.commits", "relay's own commits (once.outbox.relay.commits)");
    NAMES.put("relay.joined", "rows completed in their handler's transaction");
    NAMES.put("relay.delivered", "rows the relay delivered (once.outbox.relay.delivered)");
  }

  /** The counters before the relay-on shop starts. */
  record Window(PgProbe probe, String transport, PgProbe.Snapshot before, long t0) {
    /**
     * After the shop closed: the counts of the window, per event.
     *
     * @param kafka the Kafka clients' counters sampled just before the shop closed
     * @param meters the shop's once.* counters sampled just before it closed
     */
    DrainCounts end(long events, Map<String, Double> kafka, Map<String, Double> meters)
        throws Exception {
      probe.awaitNoShopSessions();
      PgProbe.Snapshot after = probe.snapshot();
      double seconds = (System.nanoTime() - t0) / 1e9;
      long own = after.own() - before.own();
      Map<String, Double> t = new LinkedHashMap<>();
      t.put("commits", (double) (after.commits() - before.commits() - own));
      t.put("rollbacks", (double) (after.rollbacks() - before.rollbacks()));
      t.put(
          "statements",
          after.statements() < 0
              ? Double.NaN
              : (double) (after.statements() - before.statements() - own));
      t.put("walSyncs", (double) (after.walSyncs() - before.walSyncs()));
      t.put("walRecords", (double) (after.walRecords() - before.walRecords()));
      t.put("walKiB", (after.walBytes() - before.walBytes()) / 1024.0);
      for (String table : List.of("outbox", "inbox")) {
        t.put(
            "writes." + table,
            (double) (after.writes("once." + table) - before.writes("once." + table)));
      }
      t.put("writes.all", (double) (after.writes("all") - before.writes("all")));
      t.put(
          "cpu.jvm",
          before.jvmCpuNanos() < 0
              ? Double.NaN
              : (after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e6);
      t.put(
          "cpu.pg",
          before.pgCpuTicks() < 0 || after.pgCpuTicks() < 0
              ? Double.NaN
              : (after.pgCpuTicks() - before.pgCpuTicks()) * 1000.0 / Cpu.TICKS_PER_SECOND);
      double producer = kafka.getOrDefault("producer requests", Double.NaN);
      double consumer = kafka.getOrDefault("consumer requests", Double.NaN);
      t.put("kafka.requests", kafka.isEmpty() ? Double.NaN : nan0(producer) + nan0(consumer));
      t.put("kafka.producerRequests", producer);
      t.put("kafka.consumerRequests", consumer);
      t.put("kafka.fetches", kafka.getOrDefault("consumer fetches", Double.NaN));
      t.put("kafka.offsetCommits", kafka.getOrDefault("consumer commits", Double.NaN));
      t.put("relay.claims", meters.getOrDefault("once.outbox.relay.claims", Double.NaN));
      t.put("relay.commits", meters.getOrDefault("once.outbox.relay.commits", Double.NaN));
      t.put(
          "relay.joined", meters.getOrDefault("once.outbox.relay.joined.completions", Double.NaN));
      t.put("relay.delivered", meters.getOrDefault("once.outbox.relay.delivered", Double.NaN));
      Map<String, Double> v = new LinkedHashMap<>();
      for (String name : NAMES.keySet()) {
        v.put(name, t.getOrDefault(name, Double.NaN) / events);
      }
      // Ratios, not per event:
      v.put(
          "kafka.recordsPerProducerRequest",
          kafka.getOrDefault("producer records sent", Double.NaN) / producer);
      v.put(
          "kafka.recordsPerFetch",
          kafka.getOrDefault("consumer records", Double.NaN)
              / kafka.getOrDefault("consumer fetches", Double.NaN));
      v.put(
          "relay.rowsPerClaim",
          meters.getOrDefault("once.outbox.relay.claimed.rows", Double.NaN)
              / meters.getOrDefault("once.outbox.relay.claims", Double.NaN));
      v.put(
          "relay.rowsPerBatch",
          meters.getOrDefault("once.outbox.relay.batched.rows", Double.NaN)
              / meters.getOrDefault("once.outbox.relay.batches", Double.NaN));
      v.put(
          "relay.rowsPerCompletion",
          meters.getOrDefault("once.outbox.relay.completed.rows", Double.NaN)
              / meters.getOrDefault("once.outbox.relay.completions", Double.NaN));
      List<String> top = events == 0 ? List.of() : probe.topStatements(8, events);
      return new DrainCounts(transport, events, seconds, v, t, top);
    }
  }

  private static double nan0(double value) {
    return Double.isNaN(value) ? 0 : value;
  }

  /** Snapshots with no shop connected, then forgets pg_stat_statements' entries. */
  static Window start(PgProbe probe, String transport) throws Exception {
    probe.awaitNoShopSessions();
    probe.resetStatements();
    return new Window(probe, transport, probe.snapshot(), System.nanoTime());
  }

  /** One line: each measured value per event (totals for a window without events). */
  String summary() {
    if (events == 0) {
      return idleSummary(totals, seconds);
    }
    List<String> parts = new ArrayList<>();
    values.forEach(
        (name, value) -> {
          if (Double.isFinite(value)) {
            parts.add(name + " " + f("%.3f", value));
          }
        });
    return String.join(", ", parts) + f(" (window %.1f s, %d events)", seconds, events);
  }

  /** The totals of a window without events, in one line ({@code total.<name>} of its facts). */
  static String idleSummary(Map<String, Double> totals, double seconds) {
    return f(
        "%.0f commits, %s statements, %.0f WAL fsyncs, %.0f row writes, CPU %.0f ms JVM + %.0f ms"
            + " PostgreSQL, in %.1f s",
        totals.get("commits"),
        Double.isNaN(totals.get("statements")) ? "n/a" : f("%.0f", totals.get("statements")),
        totals.get("walSyncs"),
        totals.get("writes.all"),
        totals.get("cpu.jvm"),
        totals.get("cpu.pg"),
        seconds);
  }

  /** Every value and total as properties, {@code perEvent.<name>} and {@code total.<name>}. */
  Map<String, String> facts() {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("events", Long.toString(events));
    facts.put("window", f("%.1f", seconds));
    values.forEach((name, value) -> facts.put("perEvent." + name, Double.toString(value)));
    totals.forEach((name, value) -> facts.put("total." + name, Double.toString(value)));
    for (int i = 0; i < top.size(); i++) {
      facts.put("top." + i, top.get(i));
    }
    return facts;
  }
}
