package dev.once.verify.chaos;

import dev.once.verify.failover.ReplicatedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The killer thread of a chaos run: the plan's kills at their times, each victim restarted; a
 * shop's restart runs in a thread of its own, so that the other kills still come when planned (a
 * kill of the same shop waits for it); with Kafka a further shop joins the consumer groups for a
 * while.
 */
final class Killer implements Runnable {
  /** How long the inbox stays locked before a shop is killed in the stall. */
  static final Duration STALL = Duration.ofSeconds(3);

  private final ChaosRun run;
  private final PrintStream out;
  private final boolean kafka;
  private final long start;
  private final long deadline;

  /** The threads that restart shops, by shop. */
  private final Map<Integer, Thread> restarts = new HashMap<>();

  private int done;
  private Thread extra;

  /** The rebuild of the last failover's old primary as the standby. */
  private Thread rebuild;

  Killer(ChaosRun run, long start, long deadline) {
    this.run = run;
    this.out = run.out;
    this.kafka = run.options.kafka();
    this.start = start;
    this.deadline = deadline;
  }

  @Override
  public void run() {
    try {
      for (KillPlan.Kill k : run.plan) {
        Schedule.sleepUntil(start + k.at().toNanos());
        if (System.nanoTime() >= deadline) {
          break;
        }
        done++;
        if (k.target() == KillPlan.FAILOVER) {
          failover();
        } else if (k.target() == KillPlan.EXTRA_SHOP_START) {
          startExtraShop();
        } else if (k.target() == KillPlan.EXTRA_SHOP_KILL) {
          killExtraShop();
        } else {
          killVictim(k);
          restartVictim(k);
        }
      }
      for (Thread t : restarts.values()) {
        t.join(TimeUnit.MINUTES.toMillis(3));
      }
      if (rebuild != null) {
        rebuild.join(TimeUnit.MINUTES.toMillis(3));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      run.problem("a process could not be restarted: " + e.getMessage());
    }
  }

  private double seconds() {
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * SIGKILL of the database primary and its standby promoted; then, in a thread of its own, the old
   * primary rebuilt as the new standby (a failover waits for the last one's rebuild first).
   */
  private void failover() throws InterruptedException {
    if (rebuild != null) {
      rebuild.join(TimeUnit.MINUTES.toMillis(3));
    }
    ReplicatedPostgres pair = run.db.pair();
    ReplicatedPostgres.Failover f;
    try {
      f = pair.failover();
    } catch (SQLException | IllegalStateException e) {
      run.problem("the failover failed: " + e.getMessage());
      return;
    }
    run.failovers.failedOver(f);
    out.printf(
        "  [%5.1fs] kill -9 of the database primary %s (%d of %d); %s promoted after %.1fs;"
            + " rebuilding the old primary as its standby%n",
        seconds(), f.from(), done, run.plan.size(), f.to(), f.promotionSeconds());
    rebuild =
        inBackground(
            "chaos-rebuild",
            "the old primary could not be rebuilt as the standby: ",
            () -> {
              try {
                pair.rebuild();
              } catch (SQLException e) {
                throw new IOException(e.getMessage(), e);
              }
              run.failovers.rebuilt(System.nanoTime());
              out.printf(
                  "  [%5.1fs] %s streams again as the standby, %.1fs after the failover%n",
                  seconds(), f.from(), (System.nanoTime() - f.killed()) / 1e9);
            });
  }

  /** With Kafka: a further shop joins the consumer groups, started in a thread of its own. */
  private void startExtraShop() {
    Processes processes = run.processes;
    out.printf(
        "  [%5.1fs] a further shop joins the consumer groups (a rebalance) (%d of %d)%n",
        seconds(), done, run.plan.size());
    long begun = System.nanoTime();
    // In a thread of its own: a shop takes a while to start, and the plan goes on meanwhile.
    extra =
        inBackground(
            "chaos-extra-shop",
            "the further shop did not start: ",
            () -> {
              processes.startShop(processes.extraShop());
              out.printf(
                  "  [%5.1fs] the further shop is up after %.1fs%n",
                  seconds(), (System.nanoTime() - begun) / 1e9);
            });
  }

  /** The further shop dies in an inbox stall once it is up: the groups rebalance again. */
  private void killExtraShop() throws InterruptedException {
    if (extra != null) {
      extra.join(TimeUnit.MINUTES.toMillis(3)); // kill it once it is up
    }
    killInAStall(run.processes.extraShop());
    out.printf(
        "  [%5.1fs] kill -9 of the further shop (%d of %d): the groups rebalance again%n",
        seconds(), done, run.plan.size());
  }

  /** kill -9 of psp-simulator, the broker or a shop (with Kafka, a shop in an inbox stall). */
  private void killVictim(KillPlan.Kill k) throws InterruptedException {
    if (k.target() == KillPlan.SIMULATOR) {
      run.processes.killSimulator();
      run.simulatorKills.incrementAndGet();
    } else if (k.target() == KillPlan.BROKER) {
      run.processes.killBroker();
      run.brokerKills.incrementAndGet();
    } else {
      Thread before = restarts.remove(k.target());
      if (before != null) {
        before.join(TimeUnit.MINUTES.toMillis(3)); // its last restart first
      }
      if (kafka) {
        killInAStall(k.target());
      } else {
        run.processes.killShop(k.target());
      }
      run.counters.kills.incrementAndGet();
    }
    out.printf(
        "  [%5.1fs] kill -9 of %s%s (%d of %d); restarting%n",
        seconds(),
        k.victim(),
        kafka && k.target() >= 0 ? " in a 3 s inbox stall" : "",
        done,
        run.plan.size());
  }

  /**
   * The victim starts again: a shop in the background (a kill of the same shop waits for it), the
   * simulator and the broker before the next kill.
   */
  private void restartVictim(KillPlan.Kill k) throws IOException, InterruptedException {
    Processes processes = run.processes;
    long restart = System.nanoTime();
    Runnable up =
        () ->
            out.printf(
                "  [%5.1fs] %s up again after %.1fs%n",
                seconds(), k.victim(), (System.nanoTime() - restart) / 1e9);
    if (k.target() >= 0) {
      // On a busy machine a shop's restart takes long (18 and 31 s in one CI run), and the other
      // kills must still come when planned, not after it.
      int shop = k.target();
      restarts.put(
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
      run.faults(run.options.providerFaults());
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
                run.problem(failure + e.getMessage());
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * With Kafka, a shop dies while its consumers are inside their transactions: the tables the
   * consumers write (products, orders) are locked for {@link #STALL} (as a stalled database would
   * hold them), the shop is killed with the lock still held, and the lock goes. A consumer that
   * committed a record's offset before its transaction loses that record here; one that commits
   * after its transaction gets it again. Not the inbox table: the consumers' offset commits wait
   * for a WAL flush that writes there, and a stall of it would hold the broken mode's early commit
   * back too.
   */
  private void killInAStall(int shop) throws InterruptedException {
    try (java.sql.Connection c = run.db.connect()) {
      c.setAutoCommit(false);
      try (java.sql.Statement s = c.createStatement()) {
        s.execute("SET LOCAL lock_timeout = '10s'");
        s.execute("LOCK TABLE public.product, public.orders IN EXCLUSIVE MODE");
        Thread.sleep(STALL.toMillis());
        run.processes.killShop(shop);
      }
      c.rollback();
    } catch (SQLException e) {
      run.processes.killShop(shop); // no stall, still the kill
    }
  }
}
