package dev.once.verify.bench;

import static dev.once.verify.bench.BenchRun.progress;

import dev.once.verify.bench.BenchRun.Tenant;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShutdownHook;
import dev.once.verify.load.CpuClock;
import dev.once.verify.load.LoadRunner;
import dev.once.verify.report.BenchReport;
import dev.once.verify.report.MarkdownWriter;
import dev.once.verify.report.TableWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bench}: in one run on one embedded PostgreSQL, the SQL floor of a payment with and without
 * Once, then the shop over HTTP with Once on (new payments, replays, an authenticated GET), then
 * the shop restarted with Once's filter off (new payments), then orders placed on a shop with the
 * relay on, in a database of their own ({@link OrdersScenario}); on request, new payments on a shop
 * without a tracer and on one with a tracer, in alternation ({@link TracingScenario}), and what one
 * client's flood costs another ({@link FairnessScenario}). Writes results.md, results.json and
 * chart.svg and prints the table. Everything it started is stopped on exit, Ctrl-C included.
 */
public final class BenchCommand {
  /** Keys completed before the replay scenario, then replayed in turn. */
  static final int REPLAY_KEYS = 1_000;

  private final BenchOptions options;
  private final BenchRun run;
  private boolean replayKeysMade;

  public BenchCommand(BenchOptions options) {
    this.options = options;
    this.run = new BenchRun(options);
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
              run.aborted = true;
              main.interrupt();
              run.stopAll();
            })) {
      return measure();
    } finally {
      run.stopAll();
    }
  }

  /**
   * The measurement, phase by phase: start PostgreSQL, set the payments' shop up, run every round's
   * scenarios (SQL floor and HTTP with Once on, HTTP with Once off, orders, tracing), then report.
   */
  private int measure() throws Exception {
    Files.createDirectories(options.out());
    progress("results in " + options.out());
    String pgVersion = run.startDatabase();
    Tenant payer = setUpPayments();
    OrdersScenario orders = new OrdersScenario(run);
    for (int round = 1; round <= options.rounds(); round++) {
      run.round = round;
      if (onceOnScenarios()) {
        onceOn(payer);
      }
      if (options.runs(Scenario.HTTP_OFF)) {
        onceOff(payer);
      }
      if (options.runs(Scenario.ORDERS)) {
        for (int connections : options.orderConnections()) {
          orders.run(connections);
        }
      }
      if (options.runs(Scenario.UNTRACED) || options.runs(Scenario.TRACED)) {
        TracingScenario.run(run, payer);
      }
      if (options.runs(Scenario.FAIRNESS)) {
        FairnessScenario.run(run);
      }
    }
    return report(BenchSummary.report(run, pgVersion));
  }

  /** Whether a scenario of the shop with Once on (and the SQL floor) runs. */
  private boolean onceOnScenarios() {
    return options.scenarios().stream().anyMatch(s -> s.ordinal() <= Scenario.GET.ordinal());
  }

  /** Set-up: the shop with Once on, a client and its funded accounts (none for orders alone). */
  private Tenant setUpPayments() throws Exception {
    if (options.scenarios().stream()
        .allMatch(s -> s == Scenario.ORDERS || s == Scenario.FAIRNESS)) {
      return new Tenant("", new ArrayList<>());
    }
    progress("starting the shop, Once on (relay off: it has its own benchmark, bench/relay.sh)");
    run.startShop(BenchDatabase.DATABASE, false, "shop-once-on.log", List.of());
    try (ShopApi api = new ShopApi(run.shop.port())) {
      return run.setUp(api, "bench");
    }
  }

  /** Once on: the SQL floor, new payments, replays and a GET, on the shop with Once's filter. */
  private void onceOn(Tenant payer) throws Exception {
    if (run.shop == null) {
      run.startShop(BenchDatabase.DATABASE, false, "shop-once-on-" + run.round + ".log", List.of());
      run.firstRequest(payer);
    }
    LoadRunner inProcess = run.runner(CpuClock.NONE);
    byte[] keyHash =
        MessageDigest.getInstance("SHA-256")
            .digest(payer.apiKey().getBytes(StandardCharsets.UTF_8));
    SqlFloor sql = new SqlFloor(run.db, keyHash, payer.accounts());
    if (options.runs(Scenario.SQL_ONCE)) {
      run.scenario(inProcess, Scenario.SQL_ONCE, options.threads(), sql.withOnce(run.tag("sql")));
    }
    if (options.runs(Scenario.SQL_PLAIN)) {
      run.scenario(inProcess, Scenario.SQL_PLAIN, options.threads(), sql.plain());
    }
    HttpScenarios http = run.http(payer);
    if (options.runs(Scenario.HTTP_ONCE)) {
      run.scenario(
          run.runner(), Scenario.HTTP_ONCE, options.connections(), http.newPayments(run.tag("on")));
    }
    if (options.runs(Scenario.REPLAY)) {
      replay(http, payer.apiKey());
    }
    if (options.runs(Scenario.GET)) {
      run.scenario(run.runner(), Scenario.GET, options.connections(), http.getAccount());
    }
    run.closeShop("Once on");
  }

  /** Replays: {@value #REPLAY_KEYS} keys completed once (first round), then replayed in turn. */
  private void replay(HttpScenarios http, String apiKey) throws Exception {
    String prefix = run.runTag("replay");
    if (!replayKeysMade) {
      progress("completing " + REPLAY_KEYS + " keys to replay");
      try (ShopApi api = new ShopApi(run.shop.port())) {
        for (int i = 0; i < REPLAY_KEYS; i++) {
          api.pay(apiKey, prefix + "-" + i, http.replayBody(i));
        }
      }
      replayKeysMade = true;
    }
    run.scenario(
        run.runner(),
        Scenario.REPLAY,
        options.connections(),
        http.replays(prefix, REPLAY_KEYS, options.connections()));
  }

  /** Once off: the shop restarted with Once's filter off, new payments. */
  private void onceOff(Tenant payer) throws Exception {
    progress("restarting the shop with --once.idempotency.http.enabled=false");
    run.startShop(
        BenchDatabase.DATABASE,
        false,
        "shop-once-off-" + run.round + ".log",
        List.of("--once.idempotency.http.enabled=false"));
    run.firstRequest(payer);
    run.scenario(
        run.runner(),
        Scenario.HTTP_OFF,
        options.connections(),
        run.http(payer).newPayments(run.tag("off")));
    run.closeShop("Once off");
  }

  /** Report: results.md, results.json and chart.svg, the table; 0 if every answer was expected. */
  private int report(BenchReport report) throws IOException {
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
}
