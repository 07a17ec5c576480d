package dev.once.verify.chaos;

import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.ShutdownHook;
import dev.once.verify.report.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code once-verify chaos}: PostgreSQL in this JVM (or an external one), psp-simulator and one or
 * more shops as processes (or running ones it attaches to), a seeded workload from concurrent
 * clients, SIGKILLs of the shops and of psp-simulator, and provider faults; once quiet, the checks
 * of {@link Checks} and the database invariants, a verdict table and a report. With {@code --kafka}
 * also a Kafka broker as a child process that the plan kills too, a further shop that joins the
 * consumer groups for a while, shop kills in an inbox stall, and {@link KafkaChecks} on the topics.
 * Exit 0 if every check passes, 1 on a violation or if the run could not complete.
 */
public final class ChaosCommand {
  private final ChaosOptions options;
  private final PrintStream out;
  private final List<String> problems = new ArrayList<>();

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
    Run r = new Run(plan());
    try {
      start(r);
      load(r);
      restart(r);
      quiet(r);
      return report(r, check(r));
    } finally {
      stop(r);
    }
  }

  /** What the phases of one run share. */
  private static final class Run {
    final List<KillPlan.Kill> plan;
    final Workload.Counters counters = new Workload.Counters();
    final AtomicLong simulatorKills = new AtomicLong();
    final AtomicLong brokerKills = new AtomicLong();
    final Instant started = Instant.now();
    ChaosDatabase db;
    Processes processes;
    ShutdownHook cleanup;
    String adminToken;
    Http shop;
    Http psp;
    Workload workload;
    long[] quiet;
    Map<String, Long> lag = Map.of();
    long quietSeconds;
    Observations observations;
    KafkaChecks.Outcome kafka;

    Run(List<KillPlan.Kill> plan) {
      this.plan = plan;
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
            options.kafka(),
            options.duration())
        : List.of();
  }

  /** Start: the database, then psp-simulator, the broker and the shops (or the attached ones). */
  private void start(Run r) throws Exception {
    r.db = database();
    List<String> shopUrls;
    String simulatorUrl;
    if (options.startsProcesses()) {
      r.adminToken = secret();
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
              options.kafka());
      r.cleanup = cleanupHook(r.processes, r.db);
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

  /** Load: the clients' set-up, the faults, then the workload with the killer and progress. */
  private void load(Run r) throws Exception {
    r.workload = new Workload(r.shop, options.seed(), options.accounts(), r.counters);
    r.workload.setUp(options.clients(), r.adminToken);
    setFaults(r.psp, options.providerFaults());
    out.printf("chaos: processes up, %d accounts; workload starts%n", r.workload.accounts.size());
    long start = System.nanoTime();
    long deadline = start + options.duration().toNanos();
    Thread killer = new Thread(() -> kill(r, start, deadline), "chaos-killer");
    killer.setDaemon(true);
    if (r.processes != null) {
      killer.start();
    }
    Thread progress = new Thread(() -> progress(start, deadline, r.counters), "chaos-progress");
    progress.setDaemon(true);
    progress.start();
    r.workload.run(deadline);
    if (r.processes != null) {
      killer.join();
    }
    progress.interrupt();
  }

  /** Restart: whatever the plan left down comes up again, and the provider faults stop. */
  private void restart(Run r) throws Exception {
    out.println("chaos: workload over; waiting until quiet (provider faults off)");
    if (r.processes != null) {
      if (options.kafka()) {
        r.processes.killShop(r.processes.extraShop()); // if the plan's kill did not come
        r.processes.startBroker();
      }
      r.processes.startSimulator();
      r.processes.startShops();
    }
    setFaults(r.psp, 0);
  }

  /**
   * Quiet: the outbox drained and nothing pending. With Kafka, the groups consumed everything,
   * which may publish more (a reservation after an order), so until the topics hold as many records
   * after a round as before.
   */
  private void quiet(Run r) throws Exception {
    long quietStart = System.nanoTime();
    r.quiet = awaitQuiet(r.shop, r.adminToken, r.db);
    if (options.kafka()) {
      for (int round = 0; round < 20; round++) {
        long before = KafkaChecks.records(r.processes.bootstrap());
        r.lag = KafkaChecks.awaitConsumed(r.processes.bootstrap(), options.quietTimeout(), out);
        if (!r.lag.isEmpty()) {
          problems.add("the consumer groups did not catch up: " + r.lag);
          break;
        }
        r.quiet = awaitQuiet(r.shop, r.adminToken, r.db);
        if (KafkaChecks.records(r.processes.bootstrap()) == before) {
          break;
        }
      }
    }
    r.quietSeconds = (System.nanoTime() - quietStart) / 1_000_000_000L;
  }

  /** Check: the end state observed, every check on it, the database invariants, the topics. */
  private List<Verdict> check(Run r) throws Exception {
    r.observations = Observer.observe(r.workload, r.shop, r.psp, r.db, r.quiet);
    List<Verdict> verdicts = new ArrayList<>();
    for (Check c : Checks.all()) {
      verdicts.add(c.run(r.observations));
    }
    verdicts.addAll(Observer.databaseInvariants(r.db));
    if (options.kafka()) {
      r.kafka = KafkaChecks.check(r.processes.bootstrap(), r.db, r.lag);
      verdicts.addAll(r.kafka.verdicts());
    }
    return verdicts;
  }

  /** Report: the table, report.json, summary.md and the intents; 0 on a pass, else 1. */
  private int report(Run r, List<Verdict> verdicts) throws IOException {
    out.print(ChaosReport.table(verdicts));
    ChaosReport.write(options.out(), facts(r), verdicts);
    ChaosReport.writeIntents(options.out(), r.observations);
    boolean pass = verdicts.stream().allMatch(Verdict::pass) && problems.isEmpty();
    for (String problem : problems) {
      out.println("chaos: run incomplete: " + problem);
    }
    out.printf(
        "chaos: %s (seed %d); report %s%n",
        pass ? "PASS" : "FAIL", options.seed(), options.out().resolve("summary.md"));
    return pass ? 0 : 1;
  }

  /** The report's facts: the settings, what the run did, and what it saw. */
  private Map<String, Object> facts(Run r) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("seed", options.seed());
    facts.put("duration", options.duration().toString());
    facts.put("shops", options.shops());
    facts.put(
        "database",
        options.database().map(d -> "external " + d.jdbcUrl()).orElse("PostgreSQL in chaos"));
    facts.put("attached", options.attach().map(Object::toString).orElse("no"));
    facts.put("broken mode", options.brokenMode().orElse("none"));
    facts.put("kills planned", r.plan.size());
    facts.put("shop kills done", r.counters.kills.get());
    facts.put("psp-simulator kills done", r.simulatorKills.get());
    facts.put("kafka", options.kafka());
    if (r.kafka != null) {
      facts.put("broker kills done", r.brokerKills.get());
      facts.putAll(r.kafka.facts());
    }
    facts.put("kills", r.plan.stream().map(k -> k.at().toMillis() + " ms " + k.victim()).toList());
    facts.put("provider faults percent", options.providerFaults());
    facts.put("clients", options.clients());
    facts.put("accounts", r.workload.accounts.size());
    facts.putAll(loadFacts(r.counters, r.observations));
    facts.put("provider stats", Observer.providerStats(r.psp));
    facts.put("seconds to quiet", r.quietSeconds);
    facts.put("started", r.started.toString());
    facts.put("seconds", Duration.between(r.started, Instant.now()).toSeconds());
    facts.put("problems", List.copyOf(problems));
    facts.put("flags", options.flags());
    return facts;
  }

  /** The facts of the load and of the end state, in the report's order. */
  private static Map<String, Object> loadFacts(Workload.Counters counters, Observations o) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("requests", counters.requests.get());
    facts.put("intents (key-reuse probes included)", o.intents().size());
    facts.put("acknowledged", o.intents().stream().filter(i -> !i.timedOut()).count());
    facts.put("timed out", o.intents().stream().filter(i -> i.timedOut()).count());
    facts.put("longest wait for an answer ms", counters.longestWaitMillis.get());
    facts.put("connection errors", counters.connectionErrors.get());
    facts.put("409 in use", counters.inUse.get());
    facts.put("429 limited", counters.limited.get());
    facts.put("5xx", counters.serverErrors.get());
    facts.put("5xx samples", List.copyOf(counters.serverErrorSamples));
    facts.put("replays compared", o.replays().size());
    facts.putAll(ChaosReport.orderFacts(o.orders()));
    facts.put("key reuses", o.reuses().size());
    facts.put("journal rows", o.accounts().stream().mapToInt(a -> a.journal().size()).sum());
    facts.put(
        "longest journal", o.accounts().stream().mapToInt(a -> a.journal().size()).max().orElse(0));
    facts.put("payments", o.payments().size());
    facts.put("refunds", o.refunds().size());
    facts.put("provider effects", o.providerTotalEffects());
    return facts;
  }

  /** Stop: the processes and the database, and the Ctrl-C hook that would have stopped them. */
  private static void stop(Run r) {
    if (r.processes != null) {
      r.processes.close();
    }
    if (r.db != null) {
      r.db.close();
    }
    if (r.cleanup != null) {
      r.cleanup.close();
    }
  }

  /**
   * The run's database: an external one (refused unless empty when chaos starts the shops, which it
   * then kills), or a new one in this JVM.
   */
  private ChaosDatabase database() throws Exception {
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

  /** Stops the processes and the database if the JVM is interrupted (Ctrl-C). */
  private static ShutdownHook cleanupHook(Processes processes, ChaosDatabase db) {
    return ShutdownHook.on(
        "chaos-cleanup",
        () -> {
          processes.close();
          db.close();
        });
  }

  /**
   * Kill: the plan's kills at their times, each victim restarted; with Kafka a shop's restart runs
   * in a thread of its own, so that the broker's kills still come when planned.
   */
  private void kill(Run r, long start, long deadline) {
    Kills kills = new Kills(r, start);
    try {
      for (KillPlan.Kill k : r.plan) {
        long wait = start + k.at().toNanos() - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        if (System.nanoTime() >= deadline) {
          break;
        }
        kills.done++;
        if (k.target() == KillPlan.EXTRA_SHOP_START) {
          startExtraShop(kills);
        } else if (k.target() == KillPlan.EXTRA_SHOP_KILL) {
          killExtraShop(kills);
        } else {
          killVictim(kills, k);
          restartVictim(kills, k);
        }
      }
      for (Thread t : kills.restarts.values()) {
        t.join(TimeUnit.MINUTES.toMillis(3));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      problem("a process could not be restarted: " + e.getMessage());
    }
  }

  /** The killer thread's state: how many kills are done, the threads that restart shops. */
  private static final class Kills {
    final Run run;
    final long start;
    final Map<Integer, Thread> restarts = new HashMap<>();
    int done;
    Thread extra;

    Kills(Run run, long start) {
      this.run = run;
      this.start = start;
    }

    double seconds() {
      return (System.nanoTime() - start) / 1e9;
    }
  }

  /** With Kafka: a further shop joins the consumer groups, started in a thread of its own. */
  private void startExtraShop(Kills kills) {
    Processes processes = kills.run.processes;
    out.printf(
        "  [%5.1fs] a further shop joins the consumer groups (a rebalance) (%d of %d)%n",
        kills.seconds(), kills.done, kills.run.plan.size());
    long begun = System.nanoTime();
    // In a thread of its own: a shop takes a while to start, and the plan goes on meanwhile.
    kills.extra =
        inBackground(
            "chaos-extra-shop",
            "the further shop did not start: ",
            () -> {
              processes.startShop(processes.extraShop());
              out.printf(
                  "  [%5.1fs] the further shop is up after %.1fs%n",
                  kills.seconds(), (System.nanoTime() - begun) / 1e9);
            });
  }

  /** The further shop dies in an inbox stall once it is up: the groups rebalance again. */
  private void killExtraShop(Kills kills) throws InterruptedException {
    if (kills.extra != null) {
      kills.extra.join(TimeUnit.MINUTES.toMillis(3)); // kill it once it is up
    }
    killInAStall(kills.run.processes, kills.run.processes.extraShop(), kills.run.db);
    out.printf(
        "  [%5.1fs] kill -9 of the further shop (%d of %d): the groups rebalance again%n",
        kills.seconds(), kills.done, kills.run.plan.size());
  }

  /** kill -9 of psp-simulator, the broker or a shop (with Kafka, a shop in an inbox stall). */
  private void killVictim(Kills kills, KillPlan.Kill k) throws InterruptedException {
    Run r = kills.run;
    if (k.target() == KillPlan.SIMULATOR) {
      r.processes.killSimulator();
      r.simulatorKills.incrementAndGet();
    } else if (k.target() == KillPlan.BROKER) {
      r.processes.killBroker();
      r.brokerKills.incrementAndGet();
    } else if (options.kafka()) {
      Thread before = kills.restarts.remove(k.target());
      if (before != null) {
        before.join(TimeUnit.MINUTES.toMillis(3)); // its last restart first
      }
      killInAStall(r.processes, k.target(), r.db);
      r.counters.kills.incrementAndGet();
    } else {
      r.processes.killShop(k.target());
      r.counters.kills.incrementAndGet();
    }
    out.printf(
        "  [%5.1fs] kill -9 of %s%s (%d of %d); restarting%n",
        kills.seconds(),
        k.victim(),
        options.kafka() && k.target() >= 0 ? " in a 3 s inbox stall" : "",
        kills.done,
        r.plan.size());
  }

  /** The victim starts again: with Kafka a shop in the background, else before the next kill. */
  private void restartVictim(Kills kills, KillPlan.Kill k)
      throws IOException, InterruptedException {
    Processes processes = kills.run.processes;
    long restart = System.nanoTime();
    Runnable up =
        () ->
            out.printf(
                "  [%5.1fs] %s up again after %.1fs%n",
                kills.seconds(), k.victim(), (System.nanoTime() - restart) / 1e9);
    if (options.kafka() && k.target() >= 0) {
      // On a busy machine a shop's restart takes long, and the broker's kills must still come
      // when planned.
      int shop = k.target();
      kills.restarts.put(
          shop,
          inBackground(
              "chaos-restart-" + (shop + 1),
              "a process could not be restarted: ",
              () -> {
                processes.startShop(shop);
                up.run();
              }));
      return;
    }
    if (k.target() == KillPlan.SIMULATOR) {
      processes.startSimulator();
      setFaults(kills.run.psp, options.providerFaults());
    } else if (k.target() == KillPlan.BROKER) {
      processes.startBroker();
    } else {
      processes.startShop(k.target());
    }
    up.run();
  }

  /** A start that may take long, in a daemon thread: its failure becomes one of the problems. */
  private interface Start {
    void run() throws IOException, InterruptedException;
  }

  private Thread inBackground(String name, String failure, Start start) {
    Thread t =
        new Thread(
            () -> {
              try {
                start.run();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (IOException | RuntimeException e) {
                problem(failure + e.getMessage());
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void problem(String problem) {
    synchronized (problems) {
      problems.add(problem);
    }
  }

  /** How long the inbox stays locked before a shop is killed in the stall. */
  static final Duration STALL = Duration.ofSeconds(3);

  /**
   * With Kafka, a shop dies while its consumers are inside their transactions: the tables the
   * consumers write (products, orders) are locked for {@link #STALL} (as a stalled database would
   * hold them), the shop is killed with the lock still held, and the lock goes. A consumer that
   * committed a record's offset before its transaction loses that record here; one that commits
   * after its transaction gets it again. Not the inbox table: the consumers' offset commits wait
   * for a WAL flush that writes there, and a stall of it would hold the broken mode's early commit
   * back too.
   */
  private static void killInAStall(Processes processes, int shop, ChaosDatabase db)
      throws InterruptedException {
    try (java.sql.Connection c = db.connect()) {
      c.setAutoCommit(false);
      try (java.sql.Statement s = c.createStatement()) {
        s.execute("SET LOCAL lock_timeout = '10s'");
        s.execute("LOCK TABLE public.product, public.orders IN EXCLUSIVE MODE");
        Thread.sleep(STALL.toMillis());
        processes.killShop(shop);
      }
      c.rollback();
    } catch (SQLException e) {
      processes.killShop(shop); // no stall, still the kill
    }
  }

  private void progress(long start, long deadline, Workload.Counters c) {
    try {
      while (System.nanoTime() < deadline) {
        Thread.sleep(5_000);
        out.printf(
            "  [%5.1fs] requests %d, acknowledged %d, timed out %d, connection errors %d, 409 %d,"
                + " 5xx %d, kills %d%n",
            (System.nanoTime() - start) / 1e9,
            c.requests.get(),
            c.acks.get(),
            c.timeouts.get(),
            c.connectionErrors.get(),
            c.inUse.get(),
            c.serverErrors.get(),
            c.kills.get());
      }
    } catch (InterruptedException e) {
      // done
    }
  }

  /** The fault rates: {@code percent} split evenly into errors, time-outs and lost answers. */
  private static void setFaults(Http psp, int percent) throws IOException, InterruptedException {
    double each = percent / 300.0;
    String body =
        String.format(
            java.util.Locale.ROOT,
            "{\"latencyMs\":0,\"errorRate\":%.6f,\"timeoutRate\":%.6f,\"lostAnswerRate\":%.6f,"
                + "\"timeoutMs\":6000}",
            each,
            each,
            each);
    Http.Answer r = psp.put("/v1/faults", body);
    if (r.status() != 200) {
      throw new IOException("psp-simulator refused the faults: " + r.status() + " " + r.body());
    }
  }

  /** Waits for backlog 0 and nothing pending; returns {backlog, pending, dead}. */
  private long[] awaitQuiet(Http shop, String adminToken, ChaosDatabase db)
      throws InterruptedException, SQLException {
    SQLException unreachable = null;
    long deadline = System.nanoTime() + options.quietTimeout().toNanos();
    long[] last = {-1, -1, -1};
    long lastPrint = 0;
    while (true) {
      readOutbox(shop, adminToken, last);
      try {
        last[1] = pending(db);
        unreachable = null;
      } catch (SQLException e) {
        unreachable = e; // a database that restarts: try again until the quiet timeout
        last[1] = -1;
      }
      if (last[0] == 0 && last[1] == 0) {
        out.println("chaos: quiet: outbox drained, nothing pending");
        return last;
      }
      if (System.nanoTime() - lastPrint > 5_000_000_000L) {
        lastPrint = System.nanoTime();
        out.printf(
            "  waiting: outbox backlog %d, pending %s, dead %d%n",
            last[0],
            unreachable == null ? Long.toString(last[1]) : "? (the database is unreachable)",
            last[2]);
      }
      if (System.nanoTime() > deadline) {
        if (unreachable != null) {
          throw new SQLException(
              "the database at "
                  + db.login().jdbcUrl()
                  + " stayed unreachable for the quiet timeout ("
                  + options.quietTimeout()
                  + "): "
                  + unreachable.getMessage(),
              unreachable);
        }
        problems.add(
            "not quiet within "
                + options.quietTimeout()
                + ": backlog "
                + last[0]
                + ", pending "
                + last[1]);
        return last;
      }
      Thread.sleep(500);
    }
  }

  /** The outbox's backlog and dead rows into {@code last[0]} and {@code last[2]}, if it answers. */
  private static void readOutbox(Http shop, String adminToken, long[] last)
      throws InterruptedException {
    try {
      Http.Answer r = shop.get("/admin/v1/outbox", adminToken);
      if (r.status() == 200) {
        last[0] = Long.parseLong(Http.number(r.body(), "backlog"));
        last[2] = Long.parseLong(Http.number(r.body(), "dead"));
      }
    } catch (IOException e) {
      // a shop that restarts: the caller asks again
    }
  }

  private static long pending(ChaosDatabase db) throws SQLException {
    return db.row(
            "SELECT (SELECT count(*) FROM payment WHERE status = 'pending')"
                + " + (SELECT count(*) FROM refund WHERE status = 'pending')")[0];
  }

  private static String secret() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
