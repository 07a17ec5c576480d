package dev.once.verify.bench;

import static dev.once.verify.bench.Scenario.GET;
import static dev.once.verify.bench.Scenario.HTTP_OFF;
import static dev.once.verify.bench.Scenario.HTTP_ONCE;
import static dev.once.verify.bench.Scenario.REPLAY;
import static dev.once.verify.bench.Scenario.SQL_ONCE;
import static dev.once.verify.bench.Scenario.SQL_PLAIN;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.OrderBodies;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.harness.ShutdownHook;
import dev.once.verify.load.CpuClock;
import dev.once.verify.load.LoadResult;
import dev.once.verify.load.LoadRunner;
import dev.once.verify.load.Operation;
import dev.once.verify.report.BenchReport;
import dev.once.verify.report.MarkdownWriter;
import dev.once.verify.report.OrdersResult;
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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
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
 * the shop restarted with Once's filter off (new payments), then orders placed on a shop with the
 * relay on, in a database of their own ({@link OrderReadings}: time until reserved, deadlocks,
 * stock); on request, new payments on a shop without a tracer and on one with a tracer, in
 * alternation ({@link #tracing}). Writes results.md, results.json and chart.svg and prints the
 * table. Everything it started is stopped on exit, Ctrl-C included.
 */
public final class BenchCommand {
  /** Keys completed before the replay scenario, then replayed in turn. */
  static final int REPLAY_KEYS = 1_000;

  /** The hot SKUs every order draws from. */
  static final int HOT_SKUS = 10;

  /** Units of each hot SKU: far more than any run orders, so no order is rejected. */
  static final long HOT_STOCK = 1_000_000_000L;

  /** How long the relay may take, after the load, to move every order out of {@code placed}. */
  static final Duration RESERVE_WAIT = Duration.ofSeconds(60);

  /** How often the database is asked meanwhile. */
  static final Duration RESERVE_POLL = Duration.ofMillis(200);

  /** How long a tracing scenario's shop may take to settle its payments before it is closed. */
  static final Duration TRACING_DRAIN = Duration.ofSeconds(60);

  /**
   * The auto-configurations a shop without a tracer excludes: Boot then defines its no-op tracer,
   * which Once's starter treats as none.
   */
  static final String NO_TRACER =
      "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure"
          + ".OpenTelemetryTracingAutoConfiguration,"
          + "org.springframework.boot.micrometer.tracing.autoconfigure"
          + ".MicrometerTracingAutoConfiguration";

  private final BenchOptions options;
  private final String run = Long.toString(System.currentTimeMillis(), 36);
  private final List<LoadResult> results = new ArrayList<>();
  private final Map<String, double[]> memory = new LinkedHashMap<>();
  private final List<OrdersResult> orders = new ArrayList<>();
  private volatile boolean aborted;
  private BenchDatabase db;
  private ShopProcess shop;
  private String admin;
  private int round;
  private Tenant orderTenant;
  private CpuClock pgCpu;
  private CpuClock machineCpu;
  private boolean replayKeysMade;

  public BenchCommand(BenchOptions options) {
    this.options = options;
  }

  /** Runs the benchmark; 0 if every answer was the expected one, else 1. */
  public int run() throws Exception {
    if (!Files.isRegularFile(options.shopJar())) {
      throw new IllegalArgumentException("no shop jar at " + options.shopJar());
    }
    Thread main = Thread.currentThread();
    try (ShutdownHook hook =
        ShutdownHook.on(
            "once-verify-stop",
            () -> {
              // Ctrl-C: stop the measurement first, so nothing reports the stopped servers.
              aborted = true;
              main.interrupt();
              stopAll();
            })) {
      return measure();
    } finally {
      stopAll();
    }
  }

  /**
   * The measurement, phase by phase: start PostgreSQL, set the payments' shop up, run every round's
   * scenarios (SQL floor and HTTP with Once on, HTTP with Once off, orders), then report.
   */
  private int measure() throws Exception {
    Files.createDirectories(options.out());
    progress("results in " + options.out());
    String pgVersion = startDatabase();
    Tenant payer = setUpPayments();
    byte[] keyHash =
        MessageDigest.getInstance("SHA-256")
            .digest(payer.apiKey().getBytes(StandardCharsets.UTF_8));
    SqlFloor sql = new SqlFloor(db, keyHash, payer.accounts());
    machineCpu = MachineCpu.clock();
    for (int round = 1; round <= options.rounds(); round++) {
      this.round = round;
      if (onceOnScenarios()) {
        onceOn(payer, sql);
      }
      if (options.runs(Scenario.HTTP_OFF)) {
        onceOff(payer);
      }
      if (options.runs(Scenario.ORDERS)) {
        for (int connections : options.orderConnections()) {
          orders(machineCpu, pgCpu, connections);
        }
      }
      if (options.runs(Scenario.UNTRACED) || options.runs(Scenario.TRACED)) {
        tracing(payer);
      }
    }
    return report(pgVersion);
  }

  /** Whether a scenario of the shop with Once on (and the SQL floor) runs. */
  private boolean onceOnScenarios() {
    return options.scenarios().stream().anyMatch(s -> s.ordinal() <= Scenario.GET.ordinal());
  }

  /**
   * The cost of trace context on the payment path (issue 26): new payments on a shop whose tracing
   * auto-configuration is excluded (Boot's no-op tracer: Once stores no context and opens no span)
   * and on the shop as deployed (a tracer, sampling 1.0, every span recorded, no exporter: the
   * request's span and the context stored with each outbox row, restored by the relay's delivery
   * span, the provider call's span and the consumers' spans), each on a fresh shop with its relay
   * on, so that both halves run in the measured window as deployed, the order alternating from
   * round to round so that neither always runs on the warmer machine. Between the two, the backlog
   * is drained, so neither shop's relay settles the other's payments.
   */
  private void tracing(Tenant payer) throws Exception {
    List<Scenario> order =
        round % 2 == 1
            ? List.of(Scenario.UNTRACED, Scenario.TRACED)
            : List.of(Scenario.TRACED, Scenario.UNTRACED);
    for (Scenario s : order) {
      if (!options.runs(s)) {
        continue;
      }
      boolean traced = s == Scenario.TRACED;
      progress("starting the shop " + (traced ? "with its tracer" : "without a tracer"));
      shop =
          ShopProcess.start(
              options.shopJar(),
              db,
              BenchDatabase.DATABASE,
              true,
              admin,
              options.out().resolve("shop-" + s.id() + "-" + round + ".log"),
              options.shopJvmOptions(),
              traced ? List.of() : List.of("--spring.autoconfigure.exclude=" + NO_TRACER));
      firstRequest(payer.apiKey(), payer.accounts());
      HttpScenarios http = new HttpScenarios(shop.port(), payer.apiKey(), payer.accounts());
      scenario(
          runner(machineCpu, shop.cpu(), pgCpu),
          s,
          options.connections(),
          http.newPayments(tag(s.id())));
      // The next shop must not start with this one's backlog: its relay would settle it during
      // the next scenario's window.
      long left = drainOutbox(TRACING_DRAIN);
      if (left > 0) {
        progress(left + " outbox rows still pending after " + TRACING_DRAIN + " (" + s.id() + ")");
      }
      shop.close();
      shop = null;
    }
  }

  /**
   * Waits, at most {@code limit}, until the payments database holds no pending outbox row (the
   * running shop's relay settled every payment); the rows still pending then.
   */
  private long drainOutbox(Duration limit) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    try (Connection c = db.connectAsApplication();
        PreparedStatement pending =
            c.prepareStatement("SELECT count(*) FROM once.outbox WHERE state = 'pending'")) {
      while (true) {
        long left;
        try (ResultSet r = pending.executeQuery()) {
          r.next();
          left = r.getLong(1);
        }
        if (left == 0 || System.nanoTime() >= deadline) {
          return left;
        }
        Thread.sleep(RESERVE_POLL.toMillis());
      }
    }
  }

  /** The orders scenario alone needs neither the payments' shop nor their client. */
  private boolean payments() {
    return options.scenarios().stream().anyMatch(s -> s != Scenario.ORDERS);
  }

  /** Start: the embedded PostgreSQL and its CPU clock; returns its version. */
  private String startDatabase() throws Exception {
    progress("starting embedded PostgreSQL (fsync=on, synchronous_commit=on)");
    db = BenchDatabase.start();
    String pgVersion = db.serverVersion();
    long postmaster = db.postmasterPid();
    pgCpu = postmaster > 0 ? ProcessCpu.withChildren(postmaster) : CpuClock.NONE;
    admin = secret();
    return pgVersion;
  }

  /** Set-up: the shop with Once on, a client and its funded accounts (none for orders alone). */
  private Tenant setUpPayments() throws Exception {
    if (!payments()) {
      return new Tenant("", new ArrayList<>());
    }
    progress("starting the shop, Once on (relay off: it has its own benchmark, bench/relay.sh)");
    shop = startShop("shop-once-on.log", List.of());
    try (ShopApi api = new ShopApi(shop.port())) {
      return setUp(api, "bench");
    }
  }

  /** Once on: the SQL floor, new payments, replays and a GET, on the shop with Once's filter. */
  private void onceOn(Tenant payer, SqlFloor sql) throws Exception {
    if (shop == null) {
      shop = startShop("shop-once-on-" + round + ".log", List.of());
      firstRequest(payer.apiKey(), payer.accounts());
    }
    LoadRunner runner = runner(machineCpu, shop.cpu(), pgCpu);
    LoadRunner inProcess =
        new LoadRunner(
            options.warmup(),
            options.duration(),
            CpuClock.NONE,
            pgCpu,
            MachineCpu.others(machineCpu, ProcessCpu.self(), shop.cpu(), pgCpu));
    if (options.runs(Scenario.SQL_ONCE)) {
      scenario(inProcess, Scenario.SQL_ONCE, options.threads(), sql.withOnce(tag("sql")));
    }
    if (options.runs(Scenario.SQL_PLAIN)) {
      scenario(inProcess, Scenario.SQL_PLAIN, options.threads(), sql.plain());
    }
    HttpScenarios http = new HttpScenarios(shop.port(), payer.apiKey(), payer.accounts());
    if (options.runs(Scenario.HTTP_ONCE)) {
      scenario(runner, Scenario.HTTP_ONCE, options.connections(), http.newPayments(tag("on")));
    }
    if (options.runs(Scenario.REPLAY)) {
      replay(runner, http, payer.apiKey());
    }
    if (options.runs(Scenario.GET)) {
      scenario(runner, Scenario.GET, options.connections(), http.getAccount());
    }
    rememberMemory("Once on");
    shop.close();
    shop = null;
  }

  /** Replays: {@value #REPLAY_KEYS} keys completed once (first round), then replayed in turn. */
  private void replay(LoadRunner runner, HttpScenarios http, String apiKey) throws Exception {
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

  /** Once off: the shop restarted with Once's filter off, new payments. */
  private void onceOff(Tenant payer) throws Exception {
    progress("restarting the shop with --once.idempotency.http.enabled=false");
    shop =
        startShop(
            "shop-once-off-" + round + ".log", List.of("--once.idempotency.http.enabled=false"));
    firstRequest(payer.apiKey(), payer.accounts());
    HttpScenarios off = new HttpScenarios(shop.port(), payer.apiKey(), payer.accounts());
    scenario(
        runner(machineCpu, shop.cpu(), pgCpu),
        Scenario.HTTP_OFF,
        options.connections(),
        off.newPayments(tag("off")));
    rememberMemory("Once off");
    shop.close();
    shop = null;
  }

  /** Report: results.md, results.json and chart.svg, the table; 0 if every answer was expected. */
  private int report(String pgVersion) throws IOException {
    BenchReport report =
        new BenchReport(machine(pgVersion), results, goals(), memory, notes(), orders);
    MarkdownWriter.writeAll(report, options.out());
    System.out.println();
    System.out.print(TableWriter.write(report));
    System.out.println();
    System.out.println(
        "written: " + options.out().resolve("results.md") + ", results.json, chart.svg");
    boolean clean = report.clean();
    if (!clean) {
      System.err.println();
      for (String problem : TableWriter.problems(report)) {
        System.err.println("!!! " + problem);
      }
    }
    return clean ? 0 : 1;
  }

  private LoadResult scenario(LoadRunner runner, Scenario s, int workers, Operation.Factory factory)
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
    return r;
  }

  /**
   * The orders scenario, on a fresh shop with the relay on, on database {@code shop_orders}: the
   * relay would otherwise also deliver the payments' outbox rows that the other scenarios leave
   * behind. First time: the database, a client, accounts as for the payments, and {@value
   * #HOT_SKUS} hot SKUs of {@value #HOT_STOCK} units each. Then the load, then the wait until the
   * relay has reserved every order, then the shop stops (so every one of its sessions has reported
   * its deadlocks to pg_stat_database) and the database is read.
   */
  private void orders(CpuClock machine, CpuClock pgCpu, int connections) throws Exception {
    String database = BenchDatabase.ORDERS_DATABASE;
    startOrdersShop(database, connections);
    List<String> skus = new ArrayList<>();
    for (int i = 0; i < HOT_SKUS; i++) {
      skus.add("hot-" + i);
    }
    setUpOrders(skus);
    OrderReadings readings = new OrderReadings(db, database);
    long deadlocksBefore = readings.deadlocks();
    HttpScenarios http =
        new HttpScenarios(shop.port(), orderTenant.apiKey(), orderTenant.accounts());
    Instant runStart = Instant.now();
    LoadResult load =
        scenario(
            runner(machine, shop.cpu(), pgCpu),
            Scenario.ORDERS,
            connections,
            http.placeOrders(
                tag("order" + connections), new OrderBodies(orderTenant.accounts(), skus)));
    // The window began once the workers were connected and warmed up: a few ms after this.
    Instant windowStart = runStart.plus(options.warmup());
    Instant windowEnd = windowStart.plusNanos(load.windowNanos());
    progress("  waiting up to " + RESERVE_WAIT.toSeconds() + " s until no order is placed");
    long drain =
        readings.awaitNonePlaced(RESERVE_WAIT, RESERVE_POLL, line -> progress("  " + line));
    rememberMemory("orders, relay on, " + connections + " connections");
    shop.close();
    shop = null;
    long deadlocksAfter = readings.deadlocks();
    long deadlocks =
        deadlocksBefore < 0 || deadlocksAfter < 0 ? -1 : deadlocksAfter - deadlocksBefore;
    String title =
        Scenario.ORDERS.title()
            + ", "
            + connections
            + " connections"
            + (options.rounds() == 1 ? "" : " [round " + round + "]");
    OrdersResult r = readings.outcome(title, runStart, windowStart, windowEnd, drain, deadlocks);
    orders.add(r);
    progress(ordersLine(r, drain));
  }

  /** The orders scenario's shop, relay on, on its own database (created by the first round). */
  private void startOrdersShop(String database, int connections) throws Exception {
    if (orderTenant == null) {
      progress("creating database " + database + " for the orders scenario");
      db.createDatabase(database);
    }
    progress("starting the shop on " + database + ", relay on (it reserves the stock)");
    shop =
        ShopProcess.start(
            options.shopJar(),
            db,
            database,
            true,
            admin,
            options.out().resolve("shop-orders-" + connections + "-" + round + ".log"),
            options.shopJvmOptions(),
            List.of());
  }

  /**
   * The first round creates the client, its accounts and the hot products; later ones reuse them.
   */
  private void setUpOrders(List<String> skus) throws IOException {
    if (orderTenant != null) {
      firstRequest(orderTenant.apiKey(), orderTenant.accounts());
      return;
    }
    try (ShopApi api = new ShopApi(shop.port())) {
      Tenant tenant = setUp(api, "bench-orders");
      progress("creating " + HOT_SKUS + " products of " + HOT_STOCK + " units each over HTTP");
      for (String sku : skus) {
        api.createProduct(tenant.apiKey(), sku, "0.01", "EUR", HOT_STOCK);
      }
      orderTenant = tenant;
    }
  }

  /** The progress line of one orders run. */
  private static String ordersLine(OrdersResult r, long drain) {
    return String.format(
        java.util.Locale.ROOT,
        "  orders: %d placed, place to reserved p50 %s, p99 %s (%d measured), all reserved %s,"
            + " rejected %d, still placed %d, deadlocks %d, stock of %d products %s",
        r.orders(),
        millis(r.p50Nanos()),
        millis(r.p99Nanos()),
        r.measured(),
        drain < 0 ? "never" : "after " + drain + " ms",
        r.rejected(),
        r.stillPlaced(),
        r.deadlocks(),
        r.products(),
        r.stockProblems().isEmpty() ? "adds up" : "!!! " + r.stockProblems());
  }

  private static String millis(long nanos) {
    return nanos < 0 ? "n/a" : String.format(java.util.Locale.ROOT, "%.2f ms", nanos / 1e6);
  }

  /** Creates a client and {@code accounts} EUR accounts, each funded with 1,000,000.00. */
  private Tenant setUp(ShopApi api, String name) throws IOException {
    String apiKey = api.createClient(admin, name);
    progress("creating and funding " + options.accounts() + " accounts over HTTP");
    List<String> accounts = new ArrayList<>();
    for (int i = 0; i < options.accounts(); i++) {
      String account = api.createAccount(apiKey);
      api.deposit(apiKey, account, "1000000.00");
      accounts.add(account);
    }
    return new Tenant(apiKey, accounts);
  }

  /** A client of the shop and its accounts. */
  private record Tenant(String apiKey, List<String> accounts) {}

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
    goals.add(
        ratio(
            rate,
            "HTTP new payments: tracer / no tracer",
            Scenario.TRACED,
            Scenario.UNTRACED,
            0.97));
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
