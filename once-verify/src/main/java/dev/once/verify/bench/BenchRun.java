package dev.once.verify.bench;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.load.CpuClock;
import dev.once.verify.load.LoadResult;
import dev.once.verify.load.LoadRunner;
import dev.once.verify.load.Operation;
import dev.once.verify.report.OrdersResult;
import dev.once.verify.system.MachineCpu;
import dev.once.verify.system.ProcessCpu;
import dev.once.verify.system.ProcessMemory;
import java.io.IOException;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the scenarios of one {@code bench} run share: the options, the embedded PostgreSQL, the shop
 * running at the moment (one at a time), the CPU clocks, the round, and what was measured so far;
 * and how a scenario starts a shop, sets up a client and runs its load.
 */
final class BenchRun {
  final BenchOptions options;
  final List<LoadResult> results = new ArrayList<>();
  final Map<String, double[]> memory = new LinkedHashMap<>();
  final List<OrdersResult> orders = new ArrayList<>();
  private final String id = Long.toString(System.currentTimeMillis(), 36);
  private final String admin = ShopProcess.newAdminToken();
  volatile boolean aborted;
  BenchDatabase db;
  ShopProcess shop;
  int round;
  CpuClock pgCpu = CpuClock.NONE;
  CpuClock machineCpu = CpuClock.NONE;

  BenchRun(BenchOptions options) {
    this.options = options;
  }

  /** A client of the shop and its accounts. */
  record Tenant(String apiKey, List<String> accounts) {}

  /** Start: the embedded PostgreSQL and the CPU clocks; returns PostgreSQL's version. */
  String startDatabase() throws Exception {
    progress("starting embedded PostgreSQL (fsync=on, synchronous_commit=on)");
    db = BenchDatabase.start();
    long postmaster = db.postmasterPid();
    pgCpu = postmaster > 0 ? ProcessCpu.withChildren(postmaster) : CpuClock.NONE;
    machineCpu = MachineCpu.clock();
    return db.serverVersion();
  }

  /**
   * Starts the shop on {@code database}, its relay on or off, logging to {@code log}; the set-up's
   * shop, if still running (no scenario with Once on ran), stops first.
   */
  void startShop(String database, boolean relay, String log, List<String> args)
      throws IOException, InterruptedException {
    if (shop != null) {
      closeShop(null);
    }
    shop =
        ShopProcess.start(
            options.shopJar(),
            db.login(database),
            relay,
            ShopProcess.freePort(),
            admin,
            options.out().resolve(log),
            options.shopJvmOptions(),
            args,
            Map.of());
  }

  /** Stops the shop of the scenario that ran, its memory remembered under {@code label} if any. */
  void closeShop(String label) throws InterruptedException {
    ProcessMemory m = label == null ? null : shop.memory();
    if (m != null) {
      memory.put(label, new double[] {m.rssMegabytes(), m.peakRssMegabytes()});
    }
    shop.close();
    shop = null;
  }

  /** Creates a client and {@code accounts} EUR accounts, each funded with 1,000,000.00. */
  Tenant setUp(ShopApi api, String name) throws IOException {
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

  /**
   * A fresh shop treats the key as unfamiliar until it has authenticated once, and answers 503 to
   * unfamiliar keys beyond a fifth of its pool (ApiKeyAuthenticator): one request first.
   */
  void firstRequest(Tenant tenant) throws IOException {
    try (ShopApi api = new ShopApi(shop.port())) {
      api.get(tenant.apiKey(), "/v1/accounts/" + tenant.accounts().get(0));
    }
  }

  /** The scenarios over HTTP of {@code tenant} on the running shop. */
  HttpScenarios http(Tenant tenant) {
    return new HttpScenarios(shop.port(), tenant.apiKey(), tenant.accounts());
  }

  /** A load runner that measures {@code jvm} (the shop's CPU, or none) and PostgreSQL. */
  LoadRunner runner(CpuClock jvm) {
    return new LoadRunner(
        options.warmup(),
        options.duration(),
        jvm,
        pgCpu,
        MachineCpu.others(machineCpu, ProcessCpu.self(), shop.cpu(), pgCpu));
  }

  /** A load runner that measures the running shop and PostgreSQL. */
  LoadRunner runner() {
    return runner(shop.cpu());
  }

  /** Runs scenario {@code s} on {@code workers} workers and keeps its result. */
  LoadResult scenario(LoadRunner runner, Scenario s, int workers, Operation.Factory factory)
      throws InterruptedException {
    abortedCheck();
    progress(
        roundPrefix()
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
    LoadResult r = runner.run(s.id(), s.title() + roundSuffix(), workers, factory);
    abortedCheck();
    results.add(r);
    progress(
        String.format(
            Locale.ROOT,
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

  private void abortedCheck() throws InterruptedException {
    if (aborted) {
      throw new InterruptedException("interrupted");
    }
  }

  /** "round 2/3 " with several rounds, else nothing. */
  private String roundPrefix() {
    return options.rounds() == 1 ? "" : "round " + round + "/" + options.rounds() + " ";
  }

  /** " [round 2]" with several rounds, else nothing: how titles tell the rounds apart. */
  String roundSuffix() {
    return options.rounds() == 1 ? "" : " [round " + round + "]";
  }

  /** The admin token the run's shops are started with. */
  String admin() {
    return admin;
  }

  /** A key prefix unique to this run and round. */
  String tag(String what) {
    return what + "-" + id + "-" + round;
  }

  /** A key prefix unique to this run. */
  String runTag(String what) {
    return what + "-" + id;
  }

  /** Stops the shop and PostgreSQL; safe to repeat, and from the shutdown hook. */
  synchronized void stopAll() {
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

  static void progress(String line) {
    System.out.println(
        "[" + DateTimeFormatter.ofPattern("HH:mm:ss").format(LocalTime.now()) + "] " + line);
  }
}
