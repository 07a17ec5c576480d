package dev.once.verify.chaos;

import dev.once.verify.harness.ShutdownHook;
import dev.once.verify.network.Network;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the phases of one chaos run share: the settings, the plan, the processes and database, the
 * clients to the shops and to psp-simulator, what the load and the kills counted, and the problems
 * that leave the run incomplete.
 */
final class ChaosRun {
  final ChaosOptions options;
  final PrintStream out;
  final List<KillPlan.Kill> plan;
  final Counters counters = new Counters();
  final AtomicLong simulatorKills = new AtomicLong();
  final AtomicLong brokerKills = new AtomicLong();
  final Failovers failovers = new Failovers();

  /** With {@code --network-faults}: the shops' proxies, and the faults put on them. */
  Network network;

  NetworkFaults networkFaults;

  /** When the workload started ({@link System#nanoTime()}). */
  volatile long workloadStart;

  final Instant started = Instant.now();
  private final List<String> problems = new ArrayList<>();
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

  ChaosRun(ChaosOptions options, PrintStream out, List<KillPlan.Kill> plan) {
    this.options = options;
    this.out = out;
    this.plan = plan;
  }

  /** A reason the run is incomplete (it then fails); from any of the run's threads. */
  void problem(String problem) {
    synchronized (problems) {
      problems.add(problem);
    }
  }

  List<String> problems() {
    synchronized (problems) {
      return List.copyOf(problems);
    }
  }

  /**
   * The provider's fault rates: {@code percent} split evenly into errors, time-outs, lost answers.
   */
  void faults(int percent) throws IOException, InterruptedException {
    double each = percent / 300.0;
    String body =
        String.format(
            Locale.ROOT,
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

  /** Stop: the processes and the database, and the Ctrl-C hook that would have stopped them. */
  void stop() {
    if (processes != null) {
      processes.close();
    }
    if (network != null) {
      network.close();
    }
    if (db != null) {
      db.close();
    }
    if (cleanup != null) {
      cleanup.close();
    }
  }
}
