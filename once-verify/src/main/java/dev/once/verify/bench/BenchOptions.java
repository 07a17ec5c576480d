package dev.once.verify.bench;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Flags of {@code bench}.
 *
 * @param shopJar the shop's runnable jar
 * @param duration measured window of each scenario
 * @param warmup warm-up before each window, not reported
 * @param connections HTTP connections (one thread each)
 * @param orderConnections HTTP connections of the orders scenario (one thread each): it runs once
 *     per value, in turn, each time on a fresh shop
 * @param threads threads (JDBC connections) of the SQL floor
 * @param accounts accounts the payments are spread over
 * @param rounds how many times every scenario runs, in turn; ratios use each one's median
 * @param shopJvmOptions further options of the shop's JVM, after {@code -Xmx256m} (a profiler, a
 *     collector)
 * @param floodConnections connections of the flooding client of the fairness scenario
 * @param neighbourConnections connections of its neighbour
 * @param scenarios the scenarios to run, in {@link Scenario} order
 * @param out results folder
 * @param flags the command line as given, for the report
 */
public record BenchOptions(
    Path shopJar,
    Duration duration,
    Duration warmup,
    int connections,
    List<Integer> orderConnections,
    int threads,
    int accounts,
    int rounds,
    List<String> shopJvmOptions,
    int floodConnections,
    int neighbourConnections,
    Set<Scenario> scenarios,
    Path out,
    List<String> flags) {

  /** {@code bench --help}: the flags and their defaults. */
  public static String usage() {
    return Cli.usage(new BenchCli());
  }

  /** Parses the flags after {@code bench} ({@link BenchCli}). */
  public static BenchOptions parse(String[] args) throws UsageException {
    return Cli.parse(new BenchCli(), args).options();
  }

  /** Whether {@code scenario} is to run. */
  public boolean runs(Scenario scenario) {
    return scenarios.contains(scenario);
  }
}
