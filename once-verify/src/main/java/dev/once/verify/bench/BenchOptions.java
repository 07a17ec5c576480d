package dev.once.verify.bench;

import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    Set<Scenario> scenarios,
    Path out,
    List<String> flags) {

  public static String usage() {
    StringBuilder ids = new StringBuilder();
    for (Scenario s : Scenario.values()) {
      ids.append(
          String.format(Locale.ROOT, "                            %-11s %s%n", s.id(), s.title()));
    }
    return "bench flags:\n"
        + "  --shop-jar <file>         the shop's jar (required), e.g. shop/target/shop.jar\n"
        + "  --duration <time>         measured window per scenario (default 20s; 500ms, 20s, 2m)\n"
        + "  --warmup <time>           warm-up before each window, not reported (default 15s)\n"
        + "  --connections <n>         HTTP connections, one thread each (default 16)\n"
        + "  --order-connections <n,…> HTTP connections placing orders; scenario orders runs once per\n"
        + "                            value, each on a fresh shop (default 50,8: saturated, then not)\n"
        + "  --threads <n>             SQL floor threads and JDBC connections (default: connections)\n"
        + "  --accounts <n>            accounts the payments are spread over (default 64)\n"
        + "  --rounds <n>              run every scenario n times, in turn; the goals use the\n"
        + "                            median of each (default 1; 3 on a noisy machine)\n"
        + "  --shop-jvm <options>      further JVM options of the shop, space-separated, e.g.\n"
        + "                            \"-XX:StartFlightRecording=filename=shop.jfr\" (default none)\n"
        + "  --scenarios <a,b,..>      run only these (default all):\n"
        + ids
        + "  --out <folder>            results folder (default bench-results/<UTC time>)\n";
  }

  /** Parses the flags after {@code bench}. */
  public static BenchOptions parse(String[] args) throws UsageException {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> known =
        List.of(
            "--shop-jar",
            "--duration",
            "--warmup",
            "--connections",
            "--order-connections",
            "--threads",
            "--accounts",
            "--rounds",
            "--shop-jvm",
            "--scenarios",
            "--out");
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      String value;
      int eq = flag.indexOf('=');
      if (flag.startsWith("--") && eq > 0) {
        value = flag.substring(eq + 1);
        flag = flag.substring(0, eq);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageException(
              known.contains(flag) ? flag + " needs a value" : "unknown flag: " + flag);
        }
        value = args[++i];
      }
      if (!known.contains(flag)) {
        throw new UsageException("unknown flag: " + flag);
      }
      if (values.put(flag, value) != null) {
        throw new UsageException(flag + " given twice");
      }
    }
    String jar = values.get("--shop-jar");
    if (jar == null) {
      throw new UsageException("--shop-jar is required");
    }
    int connections = positive("--connections", values.getOrDefault("--connections", "16"));
    int threads =
        positive("--threads", values.getOrDefault("--threads", Integer.toString(connections)));
    Path out =
        Path.of(
            values.getOrDefault(
                "--out",
                "bench-results/"
                    + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                        .format(ZonedDateTime.now(ZoneOffset.UTC))));
    return new BenchOptions(
        Path.of(jar),
        duration("--duration", values.getOrDefault("--duration", "20s")),
        duration("--warmup", values.getOrDefault("--warmup", "15s")),
        connections,
        positives("--order-connections", values.getOrDefault("--order-connections", "50,8")),
        threads,
        positive("--accounts", values.getOrDefault("--accounts", "64")),
        positive("--rounds", values.getOrDefault("--rounds", "1")),
        jvmOptions(values.getOrDefault("--shop-jvm", "")),
        scenarios(values.get("--scenarios")),
        out,
        List.of(args));
  }

  /** Whether {@code scenario} is to run. */
  public boolean runs(Scenario scenario) {
    return scenarios.contains(scenario);
  }

  /** Parses {@code 500ms}, {@code 20s}, {@code 2m} or a plain number of seconds. */
  static Duration duration(String flag, String text) throws UsageException {
    try {
      Duration d;
      if (text.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      } else if (text.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      } else if (text.endsWith("m")) {
        d = Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      } else {
        d = Duration.ofSeconds(Long.parseLong(text));
      }
      if (d.isNegative() || (flag.equals("--duration") && d.isZero())) {
        throw new UsageException(flag + " must be positive, was " + text);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException(flag + ": not a duration: " + text + " (e.g. 500ms, 20s, 2m)");
    }
  }

  private static int positive(String flag, String text) throws UsageException {
    try {
      int n = Integer.parseInt(text);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new UsageException(flag + " must be a positive integer, was " + text);
  }

  private static List<Integer> positives(String flag, String text) throws UsageException {
    List<Integer> values = new java.util.ArrayList<>();
    for (String value : text.split(",", -1)) {
      values.add(positive(flag, value.trim()));
    }
    return List.copyOf(values);
  }

  private static Set<Scenario> scenarios(String list) throws UsageException {
    if (list == null) {
      return Set.of(Scenario.values());
    }
    List<Scenario> chosen = new ArrayList<>();
    for (String id : list.split(",")) {
      chosen.add(Scenario.byId(id.trim()));
    }
    return new LinkedHashSet<>(chosen);
  }

  private static List<String> jvmOptions(String value) throws UsageException {
    if (value.isBlank()) {
      return List.of();
    }
    List<String> options = List.of(value.trim().split("\\s+"));
    for (String option : options) {
      if (!option.startsWith("-")) {
        throw new UsageException("--shop-jvm takes JVM options, each starting with '-': " + option);
      }
    }
    return options;
  }
}
