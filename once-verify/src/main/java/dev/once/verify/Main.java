package dev.once.verify;

import dev.once.verify.bench.BenchCommand;
import dev.once.verify.bench.BenchOptions;
import dev.once.verify.chaos.ChaosCommand;
import dev.once.verify.chaos.ChaosOptions;
import dev.once.verify.fingerprint.FingerprintCommand;
import dev.once.verify.fingerprint.FingerprintOptions;
import dev.once.verify.kafka.KafkaCommand;
import dev.once.verify.kafka.KafkaOptions;
import java.util.Arrays;

/**
 * {@code java -jar once-verify.jar <subcommand> [flags]}. Subcommands: {@code bench} (the
 * performance benchmark), {@code chaos} (the guarantees under kills and provider faults), {@code
 * fingerprint} (what Once computes for a request, and why two differ), {@code check} (the shop's
 * invariants over its database), {@code kafka} (a single-node Kafka broker). Exit codes: 0 done, 1
 * the run failed or saw unexpected answers, 2 wrong command line (usage on stderr).
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // Quiet logging (slf4j-simple): warnings and errors only, unless asked otherwise.
    System.setProperty(
        "org.slf4j.simpleLogger.defaultLogLevel",
        System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    // Kafka's server and clients log a lot at INFO: warnings only, whatever the default.
    for (String kafka : new String[] {"org.apache.kafka", "kafka", "state.change.logger"}) {
      String key = "org.slf4j.simpleLogger.log." + kafka;
      System.setProperty(key, System.getProperty(key, "warn"));
    }
    System.exit(run(args));
  }

  static int run(String[] args) {
    if (args.length == 0) {
      System.err.println(usage());
      return 2;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    String help =
        rest.length == 1 && (rest[0].equals("--help") || rest[0].equals("-h"))
            ? subcommandUsage(args[0])
            : null;
    if (help != null) {
      System.out.print(help);
      return 0;
    }
    try {
      switch (args[0]) {
        case "bench":
          return new BenchCommand(BenchOptions.parse(rest)).run();
        case "chaos":
          return new ChaosCommand(ChaosOptions.parse(rest), System.out).run();
        case "fingerprint":
          return new FingerprintCommand(FingerprintOptions.parse(rest), System.out, System.in)
              .run();
        case "check":
          return dev.once.verify.check.CheckCommand.run(rest);
        case "kafka":
          return new KafkaCommand(KafkaOptions.parse(rest), System.out).run();
        case "-h":
        case "--help":
        case "help":
          System.out.println(usage());
          return 0;
        default:
          throw new UsageException("unknown subcommand: " + args[0]);
      }
    } catch (UsageException e) {
      System.err.println("once-verify: " + e.getMessage());
      System.err.println();
      System.err.println(usage());
      return 2;
    } catch (InterruptedException e) {
      System.err.println("once-verify: interrupted; the shop and PostgreSQL are stopped");
      return 130;
    } catch (java.io.IOException | java.sql.SQLException e) {
      // Something outside: a process that would not start, a database that cannot be reached.
      System.err.println("once-verify: failed: " + e.getMessage());
      return 1;
    } catch (Exception e) {
      System.err.println("once-verify: failed: " + e);
      e.printStackTrace(System.err);
      return 1;
    }
  }

  /** The flags of {@code subcommand}, or null for one without its own (check prints its own). */
  private static String subcommandUsage(String subcommand) {
    switch (subcommand) {
      case "bench":
        return BenchOptions.usage();
      case "chaos":
        return ChaosOptions.usage();
      case "fingerprint":
        return FingerprintOptions.usage();
      case "kafka":
        return KafkaOptions.usage();
      default:
        return null;
    }
  }

  static String usage() {
    return "Usage: java -jar once-verify.jar <subcommand> [flags]\n"
        + "\n"
        + "Subcommands:\n"
        + "  bench        performance of the shop's payment path with and without Once, and its SQL"
        + " floor\n"
        + "  chaos        kills the shops and the provider and faults the provider under a seeded\n"
        + "               workload, then checks that every effect happened exactly once\n"
        + "  fingerprint  a request's canonical body and fingerprint, as Once computes them; given a\n"
        + "               second body, whether a retry with it is replayed or refused, and why\n"
        + "  check        the shop's database invariants, read-only (flags: check --help)\n"
        + "  kafka        a single-node Kafka broker (Kafka's own KRaft server) for the shop's\n"
        + "               SHOP_KAFKA_BOOTSTRAP and for chaos --kafka; its data survives restarts\n"
        + "\n"
        + BenchOptions.usage()
        + "\n"
        + ChaosOptions.usage()
        + "\n"
        + FingerprintOptions.usage()
        + "\n"
        + KafkaOptions.usage();
  }
}
