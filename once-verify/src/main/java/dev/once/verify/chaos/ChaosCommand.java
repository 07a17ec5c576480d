package dev.once.verify.chaos;

import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.harness.ShutdownHook;
import dev.once.verify.network.Network;
import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code once-verify chaos}: PostgreSQL in this JVM (or an external one), psp-simulator and one or
 * more shops as processes (or running ones it attaches to), a seeded workload from concurrent
 * clients, SIGKILLs of the shops and of psp-simulator ({@link Killer}), and provider faults; once
 * quiet ({@link Quiet}), the checks of {@link Checks} and the database invariants, a verdict table
 * and a report. With {@code --kafka} also a Kafka broker as a child process that the plan kills
 * too, a further shop that joins the consumer groups for a while, shop kills in an inbox stall, and
 * {@link KafkaChecks} on the topics. Exit 0 if every check passes, 1 on a violation or if the run
 * could not complete.
 */
public final class ChaosCommand {
  private final ChaosOptions options;
  private final PrintStream out;

  public ChaosCommand(ChaosOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * The run, phase by phase: start the processes, load them under kills, restart what the plan left
   * down, wait until quiet, check, report. Everything it started stops at the end.
   */
  public int run() throws Exception {
    requireJars();
    Files.createDirectories(options.out());
    announce();
    ChaosRun r = new ChaosRun(options, out, plan());
    try {
      start(r);
      load(r);
      restart(r);
      Quiet.reach(r);
      return report(r, check(r));
    } finally {
      r.stop();
    }
  }

  private void requireJars() throws UsageException {
    if (!options.startsProcesses()) {
      return;
    }
    if (!Files.isRegularFile(options.shopJar())) {
      throw new UsageException("no shop jar at " + options.shopJar() + " (--shop-jar)");
    }
    if (!Files.isRegularFile(options.simulatorJar())) {
      throw new UsageException(
          "no psp-simulator jar at " + options.simulatorJar() + " (--simulator-jar)");
    }
  }

  /** The run's settings, first thing printed. */
  private void announce() {
    out.printf(
        "chaos: seed %d, %s, %d shop(s), %d shop kills, %d psp-simulator kills, %d%% provider"
            + " faults, %d clients x %d accounts; report in %s%n",
        options.seed(),
        options.duration(),
        options.shops(),
        options.kills(),
        options.simulatorKills(),
        options.providerFaults(),
        options.clients(),
        options.accounts(),
        options.out());
    options
        .brokenMode()
        .ifPresent(
            mode ->
                out.printf(
                    "chaos: the shops run with shop.testing.broken-mode=%s, a guarantee switched"
                        + " off on purpose: this run must FAIL%n",
                    mode));
    if (options.kafka()) {
      out.printf(
          "chaos: events through Kafka: a broker of its own, %d broker kills, and a further shop"
              + " that joins the consumer groups for a while%n",
          options.brokerKills());
    }
  }

  /** The seeded kills, none when chaos only attaches. */
  private List<KillPlan.Kill> plan() {
    return options.startsProcesses()
        ? KillPlan.of(
            options.seed(),
            options.shops(),
            options.kills(),
            options.simulatorKills(),
            options.brokerKills(),
            options.replication().failovers(),
            options.kafka(),
            options.duration())
        : List.of();
  }

  /** Start: the database, then psp-simulator, the broker and the shops (or the attached ones). */
  private void start(ChaosRun r) throws Exception {
    r.db = database();
    List<String> shopUrls;
    String simulatorUrl;
    if (options.startsProcesses()) {
      r.adminToken = ShopProcess.newAdminToken();
      r.network = options.networkFaults() > 0 ? new Network() : null;
      r.processes =
          new Processes(
              options.shopJar(),
              options.simulatorJar(),
              r.db,
              r.adminToken,
              options.out().resolve("logs"),
              options.seed(),
              options.shops(),
              options.brokenMode().orElse(null),
              options.kafka(),
              r.network);
      // Stops the processes and the database if the JVM is interrupted (Ctrl-C).
      Processes processes = r.processes;
      ChaosDatabase db = r.db;
      Network network = r.network;
      r.cleanup =
          ShutdownHook.on(
              "chaos-cleanup",
              () -> {
                processes.close();
                if (network != null) {
                  network.close();
                }
                db.close();
              });
      r.processes.startSimulator();
      if (options.kafka()) {
        r.processes.startBroker();
        out.printf("chaos: Kafka broker up at %s%n", r.processes.bootstrap());
      }
      r.processes.startShops();
      shopUrls = r.processes.shopUrls();
      simulatorUrl = r.processes.simulatorUrl();
    } else {
      ChaosOptions.Attach attach = options.attach().orElseThrow();
      r.adminToken = attach.adminToken();
      shopUrls = attach.shopUrls();
      simulatorUrl = attach.simulatorUrl();
      out.printf("chaos: attached to %s%n", attach);
    }
    r.shop = new Http(shopUrls, Duration.ofSeconds(10));
    r.psp = new Http(simulatorUrl, Duration.ofSeconds(10));
  }

  /**
   * The run's database: an external one (refused unless empty when chaos starts the shops, which it
   * then kills), or a new one in this JVM.
   */
  private ChaosDatabase database() throws Exception {
    if (options.replication().on()) {
      ChaosDatabase db = ChaosDatabase.replicated(options.replication().mode());
      out.printf(
          "chaos: PostgreSQL as a primary and a standby, replication %s (primary %s), %d"
              + " failover(s)%n",
          options.replication().mode().flag(),
          db.pair().primaryName(),
          options.replication().failovers());
      return db;
    }
    if (options.database().isEmpty()) {
      return ChaosDatabase.start();
    }
    ChaosDatabase db = ChaosDatabase.external(options.database().get());
    if (options.startsProcesses()) {
      long clients = db.clients();
      if (clients > 0) {
        throw new UsageException(
            "the database at "
                + options.database().get().jdbcUrl()
                + " already holds "
                + clients
                + " API clients: chaos checks everything in it, so it needs an empty database");
      }
    }
    out.printf("chaos: external database %s%n", options.database().get());
    return db;
  }

  /** Load: the clients' set-up, the faults, then the workload with the killer and progress. */
  private void load(ChaosRun r) throws Exception {
    r.workload = new Workload(r.shop, options.seed(), options.accounts(), r.counters);
    r.workload.setUp(options.clients(), r.adminToken);
    r.faults(options.providerFaults());
    if (options.replication().on()) {
      r.db.pair().checkpoint(); // the set-up is on the standby, whatever the mode loses later
    }
    out.printf("chaos: processes up, %d accounts; workload starts%n", r.workload.accounts.size());
    r.counters.keepAttempts = options.replication().on();
    long start = System.nanoTime();
    r.workloadStart = start;
    long deadline = start + options.duration().toNanos();
    Thread killer = new Thread(new Killer(r, start, deadline), "chaos-killer");
    killer.setDaemon(true);
    if (r.processes != null) {
      killer.start();
    }
    Thread faults = null;
    if (r.network != null) {
      r.networkFaults =
          new NetworkFaults(
              NetworkFaults.plan(
                  options.seed(),
                  options.networkFaults(),
                  options.shops(),
                  options.kafka() ? NetworkFaults.WITH_BROKER : NetworkFaults.DEPENDENCIES,
                  options.duration()),
              r.network,
              out,
              options.seed(),
              start,
              deadline);
      faults = new Thread(r.networkFaults, "chaos-network");
      faults.setDaemon(true);
      faults.start();
    }
    Thread progress = new Thread(() -> progress(r, start, deadline), "chaos-progress");
    progress.setDaemon(true);
    progress.start();
    r.workload.run(deadline);
    if (r.processes != null) {
      killer.join();
    }
    if (faults != null) {
      faults.join(); // its last fault heals first
    }
    progress.interrupt();
  }

  /** A progress line every 5 s until the deadline. */
  private void progress(ChaosRun r, long start, long deadline) {
    try {
      while (System.nanoTime() < deadline) {
        Thread.sleep(5_000);
        out.println(r.counters.progress((System.nanoTime() - start) / 1e9));
      }
    } catch (InterruptedException e) {
      // done
    }
  }

  /** Restart: whatever the plan left down comes up again, and the provider faults stop. */
  private void restart(ChaosRun r) throws Exception {
    out.println("chaos: workload over; waiting until quiet (provider faults off)");
    if (r.processes != null) {
      if (options.kafka()) {
        r.processes.killShop(r.processes.extraShop()); // if the plan's kill did not come
        r.processes.startBroker();
      }
      r.processes.startSimulator();
      r.processes.startShops();
    }
    r.faults(0);
  }

  /** Check: the end state observed, every check on it, the database invariants, the topics. */
  private List<Verdict> check(ChaosRun r) throws Exception {
    r.observations = Observer.observe(r.workload, r.shop, r.psp, r.db, r.quiet);
    List<Verdict> verdicts = new ArrayList<>();
    for (Check c : Checks.all()) {
      verdicts.add(c.run(r.observations));
    }
    if (options.replication().on()) {
      verdicts.add(
          r.failovers.lostAcknowledgements(r.observations, r.workload.answeredAt, options.seed()));
    }
    verdicts.addAll(Observer.databaseInvariants(r.db));
    if (options.kafka()) {
      r.kafka = KafkaChecks.check(r.processes.bootstrap(), r.db, r.lag);
      verdicts.addAll(r.kafka.verdicts());
    }
    return verdicts;
  }

  /** Report: the table, report.json, summary.md and the intents; 0 on a pass, else 1. */
  private int report(ChaosRun r, List<Verdict> verdicts) throws IOException {
    out.print(ChaosReport.table(verdicts));
    ChaosReport.write(options.out(), ChaosReport.facts(r), verdicts);
    ChaosReport.writeIntents(options.out(), r.observations);
    List<String> problems = r.problems();
    boolean pass = verdicts.stream().allMatch(Verdict::pass) && problems.isEmpty();
    for (String problem : problems) {
      out.println("chaos: run incomplete: " + problem);
    }
    out.printf(
        "chaos: %s (seed %d); report %s%n",
        pass ? "PASS" : "FAIL", options.seed(), options.out().resolve("summary.md"));
    return pass ? 0 : 1;
  }
}
