package dev.once.verify.chaos;

import dev.once.verify.UsageException;
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

  public int run() throws Exception {
    if (options.startsProcesses()) {
      if (!Files.isRegularFile(options.shopJar())) {
        throw new UsageException("no shop jar at " + options.shopJar() + " (--shop-jar)");
      }
      if (!Files.isRegularFile(options.simulatorJar())) {
        throw new UsageException(
            "no psp-simulator jar at " + options.simulatorJar() + " (--simulator-jar)");
      }
    }
    Files.createDirectories(options.out());
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
    List<KillPlan.Kill> plan =
        options.startsProcesses()
            ? KillPlan.of(
                options.seed(),
                options.shops(),
                options.kills(),
                options.simulatorKills(),
                options.brokerKills(),
                options.kafka(),
                options.duration())
            : List.of();
    Workload.Counters counters = new Workload.Counters();
    AtomicLong simulatorKills = new AtomicLong();
    AtomicLong brokerKills = new AtomicLong();
    Instant started = Instant.now();
    ChaosDatabase db = null;
    Processes processes = null;
    Thread cleanup = null;
    try {
      db = database();
      String adminToken;
      List<String> shopUrls;
      String simulatorUrl;
      if (options.startsProcesses()) {
        adminToken = secret();
        processes =
            new Processes(
                options.shopJar(),
                options.simulatorJar(),
                db,
                adminToken,
                options.out().resolve("logs"),
                options.seed(),
                options.shops(),
                options.brokenMode().orElse(null),
                options.kafka());
        cleanup = cleanupHook(processes, db);
        processes.startSimulator();
        if (options.kafka()) {
          processes.startBroker();
          out.printf("chaos: Kafka broker up at %s%n", processes.bootstrap());
        }
        processes.startShops();
        shopUrls = processes.shopUrls();
        simulatorUrl = processes.simulatorUrl();
      } else {
        ChaosOptions.Attach attach = options.attach().orElseThrow();
        adminToken = attach.adminToken();
        shopUrls = attach.shopUrls();
        simulatorUrl = attach.simulatorUrl();
        out.printf("chaos: attached to %s%n", attach);
      }
      Http shop = new Http(shopUrls, Duration.ofSeconds(10));
      Http psp = new Http(simulatorUrl, Duration.ofSeconds(10));
      Workload workload = new Workload(shop, options.seed(), options.accounts(), counters);
      workload.setUp(options.clients(), adminToken);
      setFaults(psp, options.providerFaults());
      out.printf("chaos: processes up, %d accounts; workload starts%n", workload.accounts.size());

      long start = System.nanoTime();
      long deadline = start + options.duration().toNanos();
      Processes p = processes;
      ChaosDatabase dbRef = db;
      Thread killer =
          new Thread(
              () ->
                  kill(p, plan, start, deadline, counters, simulatorKills, brokerKills, psp, dbRef),
              "chaos-killer");
      killer.setDaemon(true);
      if (processes != null) {
        killer.start();
      }
      Thread progress = new Thread(() -> progress(start, deadline, counters), "chaos-progress");
      progress.setDaemon(true);
      progress.start();
      workload.run(deadline);
      if (processes != null) {
        killer.join();
      }
      progress.interrupt();

      out.println("chaos: workload over; waiting until quiet (provider faults off)");
      if (processes != null) {
        if (options.kafka()) {
          processes.killShop(processes.extraShop()); // if the plan's kill did not come
          processes.startBroker();
        }
        processes.startSimulator();
        processes.startShops();
      }
      setFaults(psp, 0);
      long quietStart = System.nanoTime();
      long[] quiet = awaitQuiet(shop, adminToken, db);
      Map<String, Long> lag = Map.of();
      if (options.kafka()) {
        // Quiet with Kafka: the groups consumed everything, which may publish more (a reservation
        // after an order), so until the topics hold as many records after a round as before.
        for (int round = 0; round < 20; round++) {
          long before = KafkaChecks.records(processes.bootstrap());
          lag = KafkaChecks.awaitConsumed(processes.bootstrap(), options.quietTimeout(), out);
          if (!lag.isEmpty()) {
            problems.add("the consumer groups did not catch up: " + lag);
            break;
          }
          quiet = awaitQuiet(shop, adminToken, db);
          if (KafkaChecks.records(processes.bootstrap()) == before) {
            break;
          }
        }
      }
      long quietSeconds = (System.nanoTime() - quietStart) / 1_000_000_000L;
      Observations o = Observer.observe(workload, shop, psp, db, quiet);
      List<Verdict> verdicts = new ArrayList<>();
      for (Check c : Checks.all()) {
        verdicts.add(c.run(o));
      }
      verdicts.addAll(Observer.databaseInvariants(db));
      KafkaChecks.Outcome kafka = null;
      if (options.kafka()) {
        kafka = KafkaChecks.check(processes.bootstrap(), db, lag);
        verdicts.addAll(kafka.verdicts());
      }
      String table = ChaosReport.table(verdicts);
      out.print(table);
      Map<String, Object> facts = new java.util.LinkedHashMap<>();
      facts.put("seed", options.seed());
      facts.put("duration", options.duration().toString());
      facts.put("shops", options.shops());
      facts.put(
          "database",
          options.database().map(d -> "external " + d.jdbcUrl()).orElse("PostgreSQL in chaos"));
      facts.put("attached", options.attach().map(Object::toString).orElse("no"));
      facts.put("broken mode", options.brokenMode().orElse("none"));
      facts.put("kills planned", plan.size());
      facts.put("shop kills done", counters.kills.get());
      facts.put("psp-simulator kills done", simulatorKills.get());
      facts.put("kafka", options.kafka());
      if (kafka != null) {
        facts.put("broker kills done", brokerKills.get());
        facts.putAll(kafka.facts());
      }
      facts.put("kills", plan.stream().map(k -> k.at().toMillis() + " ms " + k.victim()).toList());
      facts.put("provider faults percent", options.providerFaults());
      facts.put("clients", options.clients());
      facts.put("accounts", workload.accounts.size());
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
          "longest journal",
          o.accounts().stream().mapToInt(a -> a.journal().size()).max().orElse(0));
      facts.put("payments", o.payments().size());
      facts.put("refunds", o.refunds().size());
      facts.put("provider effects", o.providerTotalEffects());
      facts.put("provider stats", Observer.providerStats(psp));
      facts.put("seconds to quiet", quietSeconds);
      facts.put("started", started.toString());
      facts.put("seconds", Duration.between(started, Instant.now()).toSeconds());
      facts.put("problems", List.copyOf(problems));
      facts.put("flags", options.flags());
      ChaosReport.write(options.out(), facts, verdicts);
      ChaosReport.writeIntents(options.out(), o);
      boolean pass = verdicts.stream().allMatch(Verdict::pass) && problems.isEmpty();
      for (String problem : problems) {
        out.println("chaos: run incomplete: " + problem);
      }
      out.printf(
          "chaos: %s (seed %d); report %s%n",
          pass ? "PASS" : "FAIL", options.seed(), options.out().resolve("summary.md"));
      return pass ? 0 : 1;
    } finally {
      if (processes != null) {
        processes.close();
      }
      if (db != null) {
        db.close();
      }
      if (cleanup != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
          // shutting down already
        }
      }
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
  private static Thread cleanupHook(Processes processes, ChaosDatabase db) {
    Thread cleanup =
        new Thread(
            () -> {
              processes.close();
              db.close();
            },
            "chaos-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    return cleanup;
  }

  private void kill(
      Processes processes,
      List<KillPlan.Kill> plan,
      long start,
      long deadline,
      Workload.Counters c,
      AtomicLong simulatorKills,
      AtomicLong brokerKills,
      Http psp,
      ChaosDatabase db) {
    int n = 0;
    Thread extra = null;
    Map<Integer, Thread> restarts = new java.util.HashMap<>();
    try {
      for (KillPlan.Kill k : plan) {
        long at = start + k.at().toNanos();
        long wait = at - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        if (System.nanoTime() >= deadline) {
          break;
        }
        n++;
        if (k.target() == KillPlan.EXTRA_SHOP_START) {
          out.printf(
              "  [%5.1fs] a further shop joins the consumer groups (a rebalance) (%d of %d)%n",
              (System.nanoTime() - start) / 1e9, n, plan.size());
          long begun = System.nanoTime();
          // In a thread of its own: a shop takes a while to start, and the plan goes on meanwhile.
          extra =
              new Thread(
                  () -> {
                    try {
                      processes.startShop(processes.extraShop());
                      out.printf(
                          "  [%5.1fs] the further shop is up after %.1fs%n",
                          (System.nanoTime() - start) / 1e9, (System.nanoTime() - begun) / 1e9);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } catch (IOException | RuntimeException e) {
                      synchronized (problems) {
                        problems.add("the further shop did not start: " + e.getMessage());
                      }
                    }
                  },
                  "chaos-extra-shop");
          extra.setDaemon(true);
          extra.start();
          continue;
        }
        if (k.target() == KillPlan.EXTRA_SHOP_KILL) {
          if (extra != null) {
            extra.join(TimeUnit.MINUTES.toMillis(3)); // kill it once it is up
          }
          killInAStall(processes, processes.extraShop(), db);
          out.printf(
              "  [%5.1fs] kill -9 of the further shop (%d of %d): the groups rebalance again%n",
              (System.nanoTime() - start) / 1e9, n, plan.size());
          continue;
        }
        if (k.target() == KillPlan.SIMULATOR) {
          processes.killSimulator();
          simulatorKills.incrementAndGet();
        } else if (k.target() == KillPlan.BROKER) {
          processes.killBroker();
          brokerKills.incrementAndGet();
        } else if (options.kafka()) {
          Thread before = restarts.remove(k.target());
          if (before != null) {
            before.join(TimeUnit.MINUTES.toMillis(3)); // its last restart first
          }
          killInAStall(processes, k.target(), db);
          c.kills.incrementAndGet();
        } else {
          processes.killShop(k.target());
          c.kills.incrementAndGet();
        }
        out.printf(
            "  [%5.1fs] kill -9 of %s%s (%d of %d); restarting%n",
            (System.nanoTime() - start) / 1e9,
            k.victim(),
            options.kafka() && k.target() >= 0 ? " in a 3 s inbox stall" : "",
            n,
            plan.size());
        long restart = System.nanoTime();
        if (options.kafka() && k.target() >= 0) {
          // A shop's restart in a thread of its own: on a busy machine it takes long, and the
          // broker's kills must still come when planned.
          int shop = k.target();
          Thread t =
              new Thread(
                  () -> {
                    try {
                      processes.startShop(shop);
                      out.printf(
                          "  [%5.1fs] %s up again after %.1fs%n",
                          (System.nanoTime() - start) / 1e9,
                          k.victim(),
                          (System.nanoTime() - restart) / 1e9);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    } catch (IOException | RuntimeException e) {
                      synchronized (problems) {
                        problems.add("a process could not be restarted: " + e.getMessage());
                      }
                    }
                  },
                  "chaos-restart-" + (shop + 1));
          t.setDaemon(true);
          t.start();
          restarts.put(shop, t);
          continue;
        }
        if (k.target() == KillPlan.SIMULATOR) {
          processes.startSimulator();
          setFaults(psp, options.providerFaults());
        } else if (k.target() == KillPlan.BROKER) {
          processes.startBroker();
        } else {
          processes.startShop(k.target());
        }
        out.printf(
            "  [%5.1fs] %s up again after %.1fs%n",
            (System.nanoTime() - start) / 1e9, k.victim(), (System.nanoTime() - restart) / 1e9);
      }
      for (Thread t : restarts.values()) {
        t.join(TimeUnit.MINUTES.toMillis(3));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      synchronized (problems) {
        problems.add("a process could not be restarted: " + e.getMessage());
      }
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
      try {
        Http.Answer r = shop.get("/admin/v1/outbox", adminToken);
        if (r.status() == 200) {
          last[0] = Long.parseLong(Http.number(r.body(), "backlog"));
          last[2] = Long.parseLong(Http.number(r.body(), "dead"));
        }
      } catch (IOException e) {
        // try again
      }
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
