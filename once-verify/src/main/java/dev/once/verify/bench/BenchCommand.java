package dev.once.verify.bench;

import static dev.once.verify.bench.Scenario.GET;
import static dev.once.verify.bench.Scenario.HTTP_OFF;
import static dev.once.verify.bench.Scenario.HTTP_ONCE;
import static dev.once.verify.bench.Scenario.REPLAY;
import static dev.once.verify.bench.Scenario.SQL_ONCE;
import static dev.once.verify.bench.Scenario.SQL_PLAIN;

import dev.once.verify.load.CpuClock;
import dev.once.verify.load.LoadResult;
import dev.once.verify.load.LoadRunner;
import dev.once.verify.load.Operation;
import dev.once.verify.report.BenchReport;
import dev.once.verify.report.MarkdownWriter;
import dev.once.verify.report.TableWriter;
import dev.once.verify.stats.Goal;
import dev.once.verify.system.MachineCpu;
import dev.once.verify.system.ProcessCpu;
import dev.once.verify.system.ProcessMemory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code bench}: in one run on one embedded PostgreSQL, the SQL floor of a payment with and without
 * Once, then the shop over HTTP with Once on (new payments, replays, an authenticated GET), then
 * the shop restarted with Once's filter off (new payments). Writes results.md, results.json and
 * chart.svg and prints the table. Everything it started is stopped on exit, Ctrl-C included.
 */
public final class BenchCommand {
  /** Keys completed before the replay scenario, then replayed in turn. */
  static final int REPLAY_KEYS = 1_000;

  private final BenchOptions options;
  private final String run = Long.toString(System.currentTimeMillis(), 36);
  private final List<LoadResult> results = new ArrayList<>();
  private final Map<String, double[]> memory = new LinkedHashMap<>();
  private volatile boolean aborted;
  private BenchDatabase db;
  private ShopProcess shop;
  private String admin;
  private int round;

  public BenchCommand(BenchOptions options) {
    this.options = options;
  }

  /** Runs the benchmark; 0 if every answer was the expected one, else 1. */
  public int run() throws Exception {
    if (!Files.isRegularFile(options.shopJar())) {
      throw new IllegalArgumentException("no shop jar at " + options.shopJar());
    }
    Thread main = Thread.currentThread();
    Thread hook =
        new Thread(
            () -> {
              // Ctrl-C: stop the measurement first, so nothing reports the stopped servers.
              aborted = true;
              main.interrupt();
              stopAll();
            },
            "once-verify-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return measure();
    } finally {
      stopAll();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Ctrl-C: the JVM is already shutting down and the hook is running or has run.
      }
    }
  }

  private int measure() throws Exception {
    Files.createDirectories(options.out());
    progress("results in " + options.out());
    progress("starting embedded PostgreSQL (fsync=on, synchronous_commit=on)");
    db = BenchDatabase.start();
    String pgVersion = db.serverVersion();
    long postmaster = db.postmasterPid();
    CpuClock pgCpu = postmaster > 0 ? ProcessCpu.withChildren(postmaster) : CpuClock.NONE;
    admin = secret();

    progress("starting the shop, Once on (relay off: it has its own benchmark, bench/relay.sh)");
    shop = startShop("shop-once-on.log", List.of());
    String apiKey;
    List<String> accounts = new ArrayList<>();
    try (ShopApi api = new ShopApi(shop.port())) {
      apiKey = api.createClient(admin, "bench");
      progress("creating and funding " + options.accounts() + " accounts over HTTP");
      for (int i = 0; i < options.accounts(); i++) {
        String account = api.createAccount(apiKey);
        api.deposit(apiKey, account, "1000000.00");
        accounts.add(account);
      }
    }
    byte[] keyHash =
        MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
    SqlFloor sql = new SqlFloor(db, keyHash, accounts);
    CpuClock machine = MachineCpu.clock();
    boolean replayKeysMade = false;
    for (int round = 1; round <= options.rounds(); round++) {
      this.round = round;
      if (shop == null) {
        shop = startShop("shop-once-on-" + round + ".log", List.of());
        firstRequest(apiKey, accounts);
      }
      LoadRunner runner = runner(machine, shop.cpu(), pgCpu);
      LoadRunner inProcess =
          new LoadRunner(
              options.warmup(),
              options.duration(),
              CpuClock.NONE,
              pgCpu,
              MachineCpu.others(machine, ProcessCpu.self(), shop.cpu(), pgCpu));
      if (options.runs(Scenario.SQL_ONCE)) {
        scenario(inProcess, Scenario.SQL_ONCE, options.threads(), sql.withOnce(tag("sql")));
      }
      if (options.runs(Scenario.SQL_PLAIN)) {
        scenario(inProcess, Scenario.SQL_PLAIN, options.threads(), sql.plain());
      }
      HttpScenarios http = new HttpScenarios(shop.port(), apiKey, accounts);
      if (options.runs(Scenario.HTTP_ONCE)) {
        scenario(runner, Scenario.HTTP_ONCE, options.connections(), http.newPayments(tag("on")));
      }
      if (options.runs(Scenario.REPLAY)) {
        String prefix = "replay-" + run;
        if (!replayKeysMade) {
          progress("completing " + REPLAY_KEYS + " keys to replay");
          try (ShopApi api = new ShopApi(shop.port())) {
            for (int i = 0; i < REPLAY_KEYS; i++) {
              api.pay(apiKey, prefix + "-" + i, http.replayBody(i));
            }
          }
          replayKeysMade = true;
        }
        scenario(
            runner,
            Scenario.REPLAY,
            options.connections(),
            http.replays(prefix, REPLAY_KEYS, options.connections()));
      }
      if (options.runs(Scenario.GET)) {
        scenario(runner, Scenario.GET, options.connections(), http.getAccount());
      }
      rememberMemory("Once on");
      shop.close();
      shop = null;

      if (options.runs(Scenario.HTTP_OFF)) {
        progress("restarting the shop with --once.idempotency.http.enabled=false");
        shop =
            startShop(
                "shop-once-off-" + round + ".log",
                List.of("--once.idempotency.http.enabled=false"));
        firstRequest(apiKey, accounts);
        HttpScenarios off = new HttpScenarios(shop.port(), apiKey, accounts);
        scenario(
            runner(machine, shop.cpu(), pgCpu),
            Scenario.HTTP_OFF,
            options.connections(),
            off.newPayments(tag("off")));
        rememberMemory("Once off");
        shop.close();
        shop = null;
      }
    }

    BenchReport report = new BenchReport(machine(pgVersion), results, goals(), memory, notes());
    MarkdownWriter.writeAll(report, options.out());
    System.out.println();
    System.out.print(TableWriter.write(report));
    System.out.println();
    System.out.println(
        "written: " + options.out().resolve("results.md") + ", results.json, chart.svg");
    boolean clean = results.stream().allMatch(LoadResult::clean);
    if (!clean) {
      System.err.println();
      for (String problem : TableWriter.problems(report)) {
        System.err.println("!!! " + problem);
      }
    }
    return clean ? 0 : 1;
  }

  private void scenario(LoadRunner runner, Scenario s, int workers, Operation.Factory factory)
      throws InterruptedException {
    if (aborted) {
      throw new InterruptedException("interrupted");
    }
    progress(
        (options.rounds() == 1 ? "" : "round " + round + "/" + options.rounds() + " ")
            + s.id()
            + ": "
            + s.title()
            + " ("
            + workers
            + " workers, warm-up "
            + options.warmup().toSeconds()
            + " s, measured "
            + options.duration().toSeconds()
            + " s)");
    String title = options.rounds() == 1 ? s.title() : s.title() + " [round " + round + "]";
    LoadResult r = runner.run(s.id(), title, workers, factory);
    if (aborted) {
      throw new InterruptedException("interrupted");
    }
    results.add(r);
    progress(
        String.format(
            java.util.Locale.ROOT,
            "  %s: %.0f/s, p50 %.2f ms, p99 %.2f ms, unexpected %d, errors %d, other processes %s of"
                + " the CPU%s",
            s.id(),
            r.perSecond(),
            r.p50Nanos() / 1e6,
            r.p99Nanos() / 1e6,
            r.unexpected(),
            r.errors(),
            Double.isNaN(r.othersCpuShare()) ? "n/a" : Math.round(100 * r.othersCpuShare()) + "%",
            r.clean() ? "" : "  !!! first: " + r.firstProblem()));
  }

  private ShopProcess startShop(String log, List<String> args)
      throws IOException, InterruptedException {
    return ShopProcess.start(
        options.shopJar(), db, admin, options.out().resolve(log), options.shopJvmOptions(), args);
  }

  /**
   * A fresh shop treats the key as unfamiliar until it has authenticated once, and answers 503 to
   * unfamiliar keys beyond a fifth of its pool (ApiKeyAuthenticator): one request first.
   */
  private void firstRequest(String apiKey, List<String> accounts) throws IOException {
    try (ShopApi api = new ShopApi(shop.port())) {
      api.get(apiKey, "/v1/accounts/" + accounts.get(0));
    }
  }

  private LoadRunner runner(CpuClock machine, CpuClock shopCpu, CpuClock pgCpu) {
    return new LoadRunner(
        options.warmup(),
        options.duration(),
        shopCpu,
        pgCpu,
        MachineCpu.others(machine, ProcessCpu.self(), shopCpu, pgCpu));
  }

  /** A key prefix unique to this run and round. */
  private String tag(String what) {
    return what + "-" + run + "-" + round;
  }

  private void rememberMemory(String label) {
    ProcessMemory m = shop.memory();
    if (m != null) {
      memory.put(label, new double[] {m.rssMegabytes(), m.peakRssMegabytes()});
    }
  }

  private List<Goal> goals() {
    // With several rounds, each scenario's rate is the median of its rounds.
    Map<Scenario, Double> rate = new HashMap<>();
    for (Scenario s : Scenario.values()) {
      List<Double> rates = new ArrayList<>();
      for (LoadResult r : results) {
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
    double[] on = memory.get("Once on");
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
            + options.accounts());
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
        "The shop ran with -Xmx256m and --once.outbox.relay.enabled=false: the relay has its own"
            + " benchmark (bench/relay.sh); payments stay pending and their outbox rows accumulate.");
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
            + " http-once, replay, get, then http-off on a restarted shop.");
    return notes;
  }

  private synchronized void stopAll() {
    try {
      if (shop != null) {
        shop.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (db != null) {
      db.close();
    }
  }

  private static void progress(String line) {
    System.out.println(
        "["
            + java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")
                .format(java.time.LocalTime.now())
            + "] "
            + line);
  }

  private static String secret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    StringBuilder b = new StringBuilder("bench-");
    for (byte x : bytes) {
      b.append(String.format("%02x", x));
    }
    return Objects.requireNonNull(b.toString());
  }
}
