package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShutdownHook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.Set;

/**
 * {@code relay}: one run on one embedded PostgreSQL ({@code fsync} on) in this JVM, the shop as its
 * own process from its jar (its in-process PSP simulator, its relay), restarted on the same
 * database between phases, the load generator in this JVM, and, for the phases that go through
 * Kafka, a broker ({@code once-verify kafka}) as another child process; then the final table of
 * each measure against its goal, printed and written to {@code --out}/relay-<time>.md. A phase that
 * fails is a row of the table ("phase failed: …") and the next phase runs. Everything it started is
 * stopped on exit, Ctrl-C included.
 */
public final class RelayCommand {
  private final RelayOptions options;
  private volatile BenchDatabase db;
  private volatile RelayRun run;

  RelayCommand(RelayOptions options) {
    this.options = options;
  }

  private interface Phase {
    void run() throws Exception;
  }

  /** The phases that start the shops they need, on the transports they measure. */
  private static final Set<String> OWN_SHOPS = Set.of("drain", "orders", "paced");

  /** Runs the phases; 0 once the table is written. */
  public int run() throws Exception {
    if (!Files.isRegularFile(options.shopJar())) {
      throw new IOException("no shop jar at " + options.shopJar());
    }
    try (ShutdownHook hook = ShutdownHook.on("once-verify-relay-stop", this::stopAll)) {
      measure();
      return 0;
    } finally {
      stopAll();
    }
  }

  private void measure() throws Exception {
    // pg_stat_statements, for the drain's statement counts, only for a run with a drain: it costs a
    // little on every statement.
    db = BenchDatabase.start(options.runs("drain") ? ServerStats.PRELOAD : Map.of());
    Path logs = Files.createDirectories(options.out().resolve("relay-logs"));
    run = new RelayRun(options, db, logs);
    header(logs);
    run.startShop(true);
    run.table.header("- the shop's relay: " + RelayRun.relayWorkers(run.shopLog()) + " workers");
    run.setUp();
    phase(
        "http",
        () -> new HttpPhase(run).run(),
        "HTTP new payments, relay on / relay off",
        ">= 0.80");
    phase(
        "relay",
        () -> new RelayPhase(run).run(),
        "relay alone, provider.charge rows",
        ">= 2,000 rows/s");
    phase(
        "archive",
        () -> new ArchivePhase(run).run(),
        "relay alone: archive on completion / delete",
        "reported");
    phase("hot", () -> HotPhase.run(run), "one hot aggregate", "reported");
    phase("drain", () -> new DrainPhase(run).run(), "drain: Kafka / in process", ">= 0.70");
    phase("orders", () -> new OrdersPhase(run).run(), "orders: place -> reserved p99", "< 2 s");
    phase("paced", () -> new PacedPhase(run).run(), "commit -> effect at low load", "reported");
    phase(
        "horizon",
        () -> new HorizonPhase(run).run(),
        "relay rows/s with a transaction held open",
        "reported");
    phase(
        "kill",
        () -> new KillPhase(run).run(),
        "rows of a killed shop redelivered",
        "all within 15 s of the kill");
    phase("purge", () -> new PurgePhase(run).run(), "purges keep pace: table sizes", "stable");
    run.table.header("- load average at the end: " + Machine.loadAverage());
    run.table.header(f("- total time: %.0f s", run.elapsedSeconds()));
    run.closeShop();
    run.table.printAndWrite(options.out());
  }

  private void header(Path logs) throws Exception {
    RelayTable table = run.table;
    table.header("# Relay benchmark (once-verify relay), " + LocalDateTime.now().withNano(0));
    table.header("");
    table.header("- config: " + options.describe());
    table.header("- machine: " + Machine.describe());
    table.header("- shop logs: " + logs.toAbsolutePath());
    table.header(
        "- PostgreSQL "
            + db.serverVersion()
            + " (embedded, fsync on, synchronous_commit on) and the load generator (one platform"
            + " thread per keep-alive HTTP/1.1 connection) in the once-verify JVM; the shop as its"
            + " own process from "
            + options.shopJar()
            + " (-Xmx256m)");
    run.progress("config: " + options.describe());
  }

  /**
   * Runs a phase if asked for; a failure is a row of the table, and the next phase runs. Every
   * phase but those that start the shops they need ({@link #OWN_SHOPS}) starts on a relay-on shop,
   * its events in process.
   */
  private void phase(String name, Phase phase, String measure, String goal) {
    if (!options.runs(name)) {
      return;
    }
    long start = System.nanoTime();
    run.progress("phase " + name);
    try {
      if (!OWN_SHOPS.contains(name)) {
        run.relayOnShop(Transport.IN_PROCESS);
      }
      phase.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.table.missing(measure + " (phase " + name + ")", "phase failed: " + e, goal);
    } catch (Exception | Error e) {
      e.printStackTrace();
      run.table.missing(measure + " (phase " + name + ")", "phase failed: " + e, goal);
    }
    run.progress(f("phase %s took %.0f s", name, (System.nanoTime() - start) / 1e9));
  }

  /** Stops the shop and PostgreSQL; safe to repeat, and from the shutdown hook. */
  private void stopAll() {
    RelayRun r = run;
    if (r != null) {
      try {
        r.close();
      } catch (Exception e) {
        System.err.println("could not stop the shop cleanly: " + e);
      }
    }
    BenchDatabase d = db;
    if (d != null) {
      d.close();
    }
  }
}
