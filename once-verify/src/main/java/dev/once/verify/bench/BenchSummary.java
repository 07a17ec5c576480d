package dev.once.verify.bench;

import static dev.once.verify.bench.Scenario.GET;
import static dev.once.verify.bench.Scenario.HTTP_OFF;
import static dev.once.verify.bench.Scenario.HTTP_ONCE;
import static dev.once.verify.bench.Scenario.REPLAY;
import static dev.once.verify.bench.Scenario.SQL_ONCE;
import static dev.once.verify.bench.Scenario.SQL_PLAIN;

import dev.once.verify.load.LoadResult;
import dev.once.verify.report.BenchReport;
import dev.once.verify.stats.Goal;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@code bench} run reports besides its measurements: the goals (ratios of the scenarios'
 * median rates, the shop's memory), the machine and settings, and the notes on how to read it.
 */
final class BenchSummary {
  private final BenchRun run;
  private final BenchOptions options;

  private BenchSummary(BenchRun run) {
    this.run = run;
    this.options = run.options;
  }

  /** The report of {@code run}, on PostgreSQL {@code pgVersion}. */
  static BenchReport report(BenchRun run, String pgVersion) {
    BenchSummary s = new BenchSummary(run);
    return new BenchReport(
        s.machine(pgVersion), run.results, s.goals(), run.memory, s.notes(), run.orders);
  }

  private List<Goal> goals() {
    // With several rounds, each scenario's rate is the median of its rounds.
    Map<Scenario, Double> rate = new HashMap<>();
    for (Scenario s : Scenario.values()) {
      List<Double> rates = new ArrayList<>();
      for (LoadResult r : run.results) {
        if (s.id().equals(r.id())) {
          rates.add(r.perSecond());
        }
      }
      if (!rates.isEmpty()) {
        rate.put(s, median(rates));
      }
    }
    List<Goal> goals = new ArrayList<>();
    goals.add(ratio(rate, "HTTP new payments: Once on / Once off", HTTP_ONCE, HTTP_OFF, 0.85));
    goals.add(ratio(rate, "SQL floor: Once / plain", SQL_ONCE, SQL_PLAIN, 0.85));
    goals.add(ratio(rate, "HTTP new payments Once on / SQL floor Once", HTTP_ONCE, SQL_ONCE, 0.60));
    goals.add(ratio(rate, "HTTP replays / authenticated GET", REPLAY, GET, 0.95));
    goals.add(
        ratio(
            rate,
            "HTTP new payments: tracer / no tracer",
            Scenario.TRACED,
            Scenario.UNTRACED,
            0.97));
    double[] on = run.memory.get("Once on");
    goals.add(
        Goal.atMost(
            "shop RSS after load, Once on (VmRSS)", on == null ? Double.NaN : on[0], 300, "MB"));
    return goals;
  }

  private Map<String, String> machine(String pgVersion) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("date", ZonedDateTime.now(ZoneOffset.UTC).withNano(0).toString());
    m.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    m.put(
        "java",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    m.put(
        "postgresql",
        pgVersion + " (embedded, fsync=on, synchronous_commit=on, otherwise defaults)");
    m.put("flags", String.join(" ", options.flags()));
    m.put(
        "settings",
        "duration "
            + options.duration().toSeconds()
            + " s, warm-up "
            + options.warmup().toSeconds()
            + " s, connections "
            + options.connections()
            + ", SQL threads "
            + options.threads()
            + ", accounts "
            + options.accounts()
            + ", order connections "
            + options.orderConnections());
    return m;
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** A ratio of two scenarios' rates; not a number when either did not run. */
  private static Goal ratio(
      Map<Scenario, Double> rate, String name, Scenario of, Scenario to, double goal) {
    return Goal.ratio(
        name, rate.getOrDefault(of, Double.NaN), rate.getOrDefault(to, Double.NaN), goal);
  }

  private List<String> notes() {
    List<String> notes = new ArrayList<>();
    notes.add(
        "The shop ran with -Xmx256m; for the payment scenarios with --once.outbox.relay.enabled=false:"
            + " the relay has its own benchmark (bench/relay.sh); payments stay pending and their"
            + " outbox rows accumulate.");
    notes.add(
        "The load generator, the shop and PostgreSQL share this machine's cores; the SQL floor runs"
            + " in the benchmark's JVM (its JVM CPU is not measured, n/a).");
    notes.add(
        "unexpected/errors count the warm-up too; requests/s, p50 and p99 count only requests that"
            + " started and ended within the measured window.");
    notes.add(
        "CPU per request: the shop JVM's and PostgreSQL's (postmaster and its children) CPU time"
            + " over the measured window, divided by the requests completed in it.");
    notes.add(
        "other processes: the share of all cores that processes other than the benchmark, the shop"
            + " and PostgreSQL used during the window (/proc/stat); above a few percent the machine"
            + " was shared and the numbers of that scenario are not comparable.");
    notes.add(
        "Scenarios run in this order on one database that keeps growing: sql-once, sql-plain,"
            + " http-once, replay, get, then http-off on a restarted shop, then orders on a shop of"
            + " its own; http-untraced and http-traced (only when --scenarios names them) last, each"
            + " on a fresh shop with its relay on (the request path and the relay's deliveries,"
            + " provider calls and consumers in one process, as deployed), in alternating order"
            + " from round to round, the backlog drained between them.");
    notes.add(
        "orders: a fresh shop with the relay on (its inbox consumer reserves the stock), on database"
            + " shop_orders of the same PostgreSQL, so the relay does not deliver the payments'"
            + " outbox rows; each order 1-3 distinct SKUs of 10 hot ones in random order, 1-3 units"
            + " each, once per value of --order-connections (default 50, then 8). Place to reserved:"
            + " reserved_at - created_at of the orders placed in the measured window, read after the"
            + " relay had reserved every order; deadlocks: pg_stat_database.deadlocks of shop_orders"
            + " after the shop stopped minus before the load; stock: per product, available +"
            + " reserved = initial_stock + restocked and reserved = the units held in reservations.");
    return notes;
  }
}
