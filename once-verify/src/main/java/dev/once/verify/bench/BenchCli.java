package dev.once.verify.bench;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench}'s command line: its flags and their defaults. A flag given twice is refused. */
@Command(
    name = "bench",
    description = {
      "Performance of the shop's payment path with and without Once, and its SQL floor; orders"
          + " placed with the relay on."
    })
public final class BenchCli extends Subcommand<BenchOptions> implements Cli.Footer {
  @Option(
      names = "--shop-jar",
      paramLabel = "<file>",
      description = "the shop's jar (required), e.g. shop/target/shop.jar")
  String shopJar;

  @Option(
      names = "--duration",
      paramLabel = "<time>",
      description = "measured window per scenario (default 20s; 500ms, 20s, 2m)")
  String duration = "20s";

  @Option(
      names = "--warmup",
      paramLabel = "<time>",
      description = "warm-up before each window, not reported (default 15s)")
  String warmup = "15s";

  @Option(
      names = "--connections",
      paramLabel = "<n>",
      description = "HTTP connections, one thread each (default 16)")
  String connections = "16";

  @Option(
      names = "--order-connections",
      paramLabel = "<n,…>",
      description = {
        "HTTP connections placing orders; scenario orders runs once per value, each on a fresh"
            + " shop (default 50,8: saturated, then not)"
      })
  String orderConnections = "50,8";

  @Option(
      names = "--threads",
      paramLabel = "<n>",
      description = "SQL floor threads and JDBC connections (default: connections)")
  String threads;

  @Option(
      names = "--accounts",
      paramLabel = "<n>",
      description = "accounts the payments are spread over (default 64)")
  String accounts = "64";

  @Option(
      names = "--rounds",
      paramLabel = "<n>",
      description = {
        "run every scenario n times, in turn; the goals use the median of each (default 1; 3 on"
            + " a noisy machine)"
      })
  String rounds = "1";

  @Option(
      names = "--shop-jvm",
      paramLabel = "<options>",
      description = {
        "further JVM options of the shop, space-separated, e.g."
            + " \"-XX:StartFlightRecording=filename=shop.jfr\" (default none)"
      })
  String shopJvm = "";

  @Option(
      names = "--flood-connections",
      paramLabel = "<n>",
      description = "fairness: connections of the client that floods one account (default 64)")
  String floodConnections = "64";

  @Option(
      names = "--neighbour-connections",
      paramLabel = "<n>",
      description = {
        "fairness: connections of the neighbour, below the shop's cap per client (default 4)"
      })
  String neighbourConnections = "4";

  @Option(
      names = "--scenarios",
      paramLabel = "<a,b,..>",
      description = "run only these, by id (default all; the ids below)")
  String scenarios;

  @Option(
      names = "--out",
      paramLabel = "<folder>",
      description = "results folder (default bench-results/<UTC time>)")
  String out;

  @Override
  public BenchOptions options() throws UsageException {
    Cli.required("--shop-jar", shopJar);
    int connectionCount = positive("--connections", connections);
    return new BenchOptions(
        Path.of(shopJar),
        duration("--duration", duration),
        duration("--warmup", warmup),
        connectionCount,
        positives("--order-connections", orderConnections),
        positive("--threads", threads == null ? Integer.toString(connectionCount) : threads),
        positive("--accounts", accounts),
        positive("--rounds", rounds),
        Cli.jvmOptions("--shop-jvm", shopJvm),
        positive("--flood-connections", floodConnections),
        positive("--neighbour-connections", neighbourConnections),
        scenarios(scenarios),
        out == null ? Cli.utcFolder("bench-results", "yyyyMMdd'T'HHmmss'Z'") : Path.of(out),
        flags());
  }

  /** Each scenario's id and title, and the exit codes. */
  @Override
  public String[] footer() {
    List<String> lines = new ArrayList<>();
    lines.add("Scenarios (--scenarios):");
    for (Scenario s : Scenario.values()) {
      lines.add(String.format(Locale.ROOT, "  %-11s %s", s.id(), s.title()));
    }
    lines.add("Exit: 0 every answer was the expected one, 1 otherwise, 2 wrong flags.");
    return lines.toArray(String[]::new);
  }

  /** The measured window must be positive; a warm-up may be zero. */
  private static Duration duration(String flag, String text) throws UsageException {
    return Cli.duration(flag, text, !flag.equals("--duration"));
  }

  private static int positive(String flag, String text) throws UsageException {
    return Cli.integer(
        text, 1, Integer.MAX_VALUE, flag + " must be a positive integer, was " + text);
  }

  private static List<Integer> positives(String flag, String text) throws UsageException {
    List<Integer> values = new ArrayList<>();
    for (String value : text.split(",", -1)) {
      try {
        values.add(positive(flag, value.trim()));
      } catch (UsageException e) {
        throw new UsageException(flag + " must be positive integers, comma-separated, was " + text);
      }
    }
    return List.copyOf(values);
  }

  private static Set<Scenario> scenarios(String list) throws UsageException {
    if (list == null) {
      Set<Scenario> all = new LinkedHashSet<>();
      for (Scenario s : Scenario.values()) {
        if (!s.onRequest()) {
          all.add(s);
        }
      }
      return all;
    }
    List<Scenario> chosen = new ArrayList<>();
    for (String id : list.split(",")) {
      chosen.add(Scenario.byId(id.trim()));
    }
    return new LinkedHashSet<>(chosen);
  }

  @Override
  protected int run(BenchOptions options) throws Exception {
    return new BenchCommand(options).run();
  }
}
