package dev.once.verify.chaos;

import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Flags of {@code chaos}.
 *
 * @param shopJar the shop's runnable jar
 * @param simulatorJar psp-simulator's runnable jar
 * @param duration how long the workload runs
 * @param kills SIGKILLs of the shop spread over the duration
 * @param providerFaults percent of provider calls that fault (split evenly into 5xx, time-outs and
 *     lost answers)
 * @param clients concurrent virtual clients
 * @param accounts accounts per client
 * @param seed the schedule's seed
 * @param quietTimeout how long to wait, after the workload, for the outbox to drain
 * @param out report folder
 * @param flags the command line as given
 */
public record ChaosOptions(
    Path shopJar,
    Path simulatorJar,
    Duration duration,
    int kills,
    int providerFaults,
    int clients,
    int accounts,
    long seed,
    Duration quietTimeout,
    Path out,
    List<String> flags) {

  public static String usage() {
    return "chaos flags:\n"
        + "  --shop-jar PATH         the shop's jar (default shop/target/shop.jar)\n"
        + "  --simulator-jar PATH    psp-simulator's jar (default"
        + " psp-simulator/target/psp-simulator.jar)\n"
        + "  --duration D            workload time, e.g. 90s, 2m (default 2m)\n"
        + "  --kills K               SIGKILLs of the shop during the workload (default 3)\n"
        + "  --provider-faults P     percent of provider calls that fault: 5xx, time-outs, lost"
        + " answers (default 0)\n"
        + "  --clients N             concurrent virtual clients (default 8)\n"
        + "  --accounts A            accounts per client (default 2)\n"
        + "  --seed S                the schedule's seed (default random, printed)\n"
        + "  --quiet-timeout D       wait at most this for the outbox to drain (default 3m)\n"
        + "  --out DIR               report folder (default chaos-results/<UTC time>)\n";
  }

  public static ChaosOptions parse(String[] args) throws UsageException {
    Path shopJar = Path.of("shop/target/shop.jar");
    Path simulatorJar = Path.of("psp-simulator/target/psp-simulator.jar");
    Duration duration = Duration.ofMinutes(2);
    int kills = 3;
    int faults = 0;
    int clients = 8;
    int accounts = 2;
    long seed = ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
    Duration quiet = Duration.ofMinutes(3);
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageException(arg + " needs a value");
        }
        value = args[++i];
      }
      switch (name) {
        case "--shop-jar" -> shopJar = Path.of(value);
        case "--simulator-jar" -> simulatorJar = Path.of(value);
        case "--duration" -> duration = duration(name, value);
        case "--kills" -> kills = integer(name, value, 0, 10_000);
        case "--provider-faults" -> faults = integer(name, value, 0, 100);
        case "--clients" -> clients = integer(name, value, 1, 1_000);
        case "--accounts" -> accounts = integer(name, value, 1, 100);
        case "--seed" -> {
          try {
            seed = Long.parseLong(value);
          } catch (NumberFormatException e) {
            throw new UsageException("--seed: not a whole number: " + value);
          }
        }
        case "--quiet-timeout" -> quiet = duration(name, value);
        case "--out" -> out = Path.of(value);
        default -> throw new UsageException("unknown chaos flag: " + name);
      }
    }
    if (out == null) {
      out =
          Path.of(
              "chaos-results",
              ZonedDateTime.now(ZoneOffset.UTC)
                  .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'")));
    }
    return new ChaosOptions(
        shopJar,
        simulatorJar,
        duration,
        kills,
        faults,
        clients,
        accounts,
        seed,
        quiet,
        out,
        List.of(args));
  }

  static Duration duration(String name, String value) throws UsageException {
    try {
      Duration d;
      if (value.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      } else if (value.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
      } else if (value.endsWith("m")) {
        d = Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
      } else if (value.endsWith("h")) {
        d = Duration.ofHours(Long.parseLong(value.substring(0, value.length() - 1)));
      } else {
        d = Duration.ofSeconds(Long.parseLong(value));
      }
      if (d.isNegative() || d.isZero()) {
        throw new UsageException(name + ": must be positive: " + value);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a duration (e.g. 90s, 2m): " + value);
    }
  }

  private static int integer(String name, String value, int min, int max) throws UsageException {
    try {
      int n = Integer.parseInt(value);
      if (n < min || n > max) {
        throw new UsageException(name + ": must be " + min + " to " + max + ": " + value);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a whole number: " + value);
    }
  }
}
