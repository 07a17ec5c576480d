package dev.once.verify.relay;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.OrderBodies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code relay}'s command line: its flags and their defaults, those of the former in-process
 * RelayBenchmark and, for the phases drain, orders through Kafka and paced, of the former
 * KafkaBenchmark ({@code --orders}, {@code --products} for its {@code --skus}, {@code --paced},
 * {@code --paced-seconds}). The issue 6 positional form ({@code [rows] [seconds] [connections]}) is
 * gone: use {@code --rows}, {@code --seconds} and {@code --connections}.
 */
@Command(
    name = "relay",
    description = {
      "The outbox relay's and the Kafka transport's benchmark: the shop's jar as its own process,"
          + " PostgreSQL and the load in this JVM; a final table of each measure against its goal."
    },
    footer = {
      "Phases (--phases, in this order): http, relay, archive, hot, drain, orders, paced, horizon,"
          + " kill, purge.",
      "drain and paced run in process, then through Kafka; orders in process, or as --kafka says."
          + " Kafka is a broker (once-verify kafka) that the run starts as a child process. The"
          + " shop's records per poll: --shop-arg --spring.kafka.consumer.max-poll-records=N. A run"
          + " with the drain starts PostgreSQL with pg_stat_statements preloaded, for the drain's"
          + " counts per event.",
      "Exit: 0 the run completed (a missed goal is a row of the table), 1 it failed, 2 wrong flags."
    })
public final class RelayCli extends Subcommand<RelayOptions> {
  @Option(names = "--shop-jar", paramLabel = "<file>", description = "the shop's jar (required)")
  String shopJar;

  @Option(
      names = "--phases",
      paramLabel = "<a,b,..>",
      description = {
        "of http,relay,archive,hot,drain,orders,paced,horizon,kill,purge, run in that order"
            + " (default all but drain and paced, which start a Kafka broker)"
      })
  String phases = String.join(",", RelayOptions.DEFAULT_PHASES);

  @Option(
      names = "--rows",
      paramLabel = "<n>",
      description = "relay: pre-filled provider.charge rows (50000)")
  String rows = "50000";

  @Option(
      names = "--seconds",
      paramLabel = "<s>",
      description = "measured window of each HTTP load, s (15)")
  String seconds = "15";

  @Option(
      names = "--warmup",
      paramLabel = "<s>",
      description = "warm-up before each HTTP load, s (8)")
  String warmup = "8";

  @Option(
      names = "--connections",
      paramLabel = "<n>",
      description = "HTTP connections of the payment loads, and placing the drain's orders (16)")
  String connections = "16";

  @Option(
      names = "--rounds",
      paramLabel = "<n>",
      description = "http: rounds of relay on, then relay off (1)")
  String rounds = "1";

  @Option(
      names = "--order-connections",
      paramLabel = "<n>",
      description = "orders: connections placing orders (50)")
  String orderConnections = "50";

  @Option(
      names = "--order-products",
      paramLabel = "<n>",
      description = "orders: the hot products the orders draw 1 to 3 of (10)")
  String orderProducts = "10";

  @Option(
      names = "--kafka",
      arity = "0..1",
      fallbackValue = "only",
      paramLabel = "only|both",
      description = {
        "orders: through Kafka instead of in process (--kafka, --kafka=only), or in process then"
            + " through Kafka (--kafka=both)"
      })
  String kafka;

  @Option(
      names = "--orders",
      paramLabel = "<n>",
      description = "drain: orders placed with the relay off, then drained, per transport (3000)")
  String orders = "3000";

  @Option(
      names = "--products",
      paramLabel = "<n>",
      description = "drain, paced: the hot products the orders draw 1 to 3 of (24)")
  String products = "24";

  @Option(
      names = "--paced",
      paramLabel = "<n>",
      description = "paced: orders per second, a low load (20)")
  String paced = "20";

  @Option(
      names = "--paced-seconds",
      paramLabel = "<s>",
      description = "paced: measured window, after a 3 s warm-up (15)")
  String pacedSeconds = "15";

  @Option(
      names = "--hot-rows",
      paramLabel = "<n>",
      description = "hot: rows of one aggregate (500)")
  String hotRows = "500";

  @Option(
      names = "--hold",
      paramLabel = "<s>",
      description = "horizon: how long the transaction stays open, s (60)")
  String hold = "60";

  @Option(
      names = "--horizon-window",
      paramLabel = "<s>",
      description = "horizon: window before and after, s (10)")
  String horizonWindow = "10";

  @Option(
      names = "--kill-rows",
      paramLabel = "<n>",
      description = "kill: rows the killed shop delivers (2000)")
  String killRows = "2000";

  @Option(
      names = "--kill-after",
      paramLabel = "<s>",
      description = "kill: s after the release until SIGKILL (3)")
  String killAfter = "3";

  @Option(
      names = "--purge-rows",
      paramLabel = "<n>",
      description = "purge: expired keys and old inbox records one purge run meets (200000)")
  String purgeRows = "200000";

  @Option(
      names = "--purge-seconds",
      paramLabel = "<s>",
      description = "purge: sustained payments with 5 s retentions, s (60)")
  String purgeSeconds = "60";

  @Option(
      names = "--purge-batch-size",
      paramLabel = "<n>",
      description = {
        "purge: batch size of both purges in the sustained run (0: the shop's, 500 keys and 1000"
            + " records)"
      })
  String purgeBatchSize = "0";

  @Option(
      names = "--retention",
      paramLabel = "<time>",
      description = "once.outbox.relay.delivered-retention of every shop ('default': the shop's)")
  String retention = "default";

  @Option(
      names = "--shop-arg",
      paramLabel = "--name=value",
      description = "another argument for every shop started (repeatable)")
  List<String> shopArgs = new ArrayList<>();

  @Option(
      names = "--shop-jvm",
      paramLabel = "<options>",
      description = {
        "further JVM options of every shop started, space-separated, e.g."
            + " \"-XX:StartFlightRecording=filename=shop.jfr\" (default none)"
      })
  String shopJvm = "";

  @Option(
      names = "--out",
      paramLabel = "<folder>",
      description = "where relay-<time>.md is written (default target/bench)")
  String out = "target/bench";

  @Override
  public RelayOptions options() throws UsageException {
    Cli.required("--shop-jar", shopJar);
    for (String arg : shopArgs) {
      if (!arg.startsWith("--") || arg.indexOf('=') < 3) {
        throw new UsageException("--shop-arg takes --name=value, was " + arg);
      }
    }
    return new RelayOptions(
        Path.of(shopJar),
        phases(phases),
        count("--rows", rows, 1),
        count("--seconds", seconds, 1),
        count("--warmup", warmup, 0),
        count("--connections", connections, 1),
        count("--rounds", rounds, 1),
        count("--order-connections", orderConnections, 1),
        count("--order-products", orderProducts, OrderBodies.MAX_ITEMS),
        transports(kafka),
        count("--orders", orders, 1),
        count("--products", products, OrderBodies.MAX_ITEMS),
        count("--paced", paced, 1),
        count("--paced-seconds", pacedSeconds, 1),
        count("--hot-rows", hotRows, 1),
        count("--hold", hold, 1),
        count("--horizon-window", horizonWindow, 1),
        count("--kill-rows", killRows, 1),
        count("--kill-after", killAfter, 0),
        count("--purge-rows", purgeRows, 1),
        count("--purge-seconds", purgeSeconds, 5),
        count("--purge-batch-size", purgeBatchSize, 0),
        retention(retention),
        List.copyOf(shopArgs),
        Cli.jvmOptions("--shop-jvm", shopJvm),
        Path.of(out));
  }

  private static int count(String flag, String text, int min) throws UsageException {
    return Cli.integer(
        text.strip(),
        min,
        Integer.MAX_VALUE,
        flag + " must be an integer of at least " + min + ", was " + text);
  }

  private static String retention(String text) throws UsageException {
    if (!text.equals("default")) {
      Cli.duration("--retention", text, true);
    }
    return text;
  }

  /** The orders phase's transports: in process; with --kafka, Kafka; with --kafka=both, both. */
  private static List<Transport> transports(String kafka) throws UsageException {
    if (kafka == null) {
      return List.of(Transport.IN_PROCESS);
    }
    return switch (kafka.strip().toLowerCase(Locale.ROOT)) {
      case "only" -> List.of(Transport.KAFKA);
      case "both" -> List.of(Transport.IN_PROCESS, Transport.KAFKA);
      default -> throw new UsageException("--kafka takes only or both, was " + kafka);
    };
  }

  /** The phases asked for, always in the documented order. */
  private static Set<String> phases(String list) throws UsageException {
    Set<String> asked = new LinkedHashSet<>();
    for (String p : list.split(",", -1)) {
      String phase = p.strip().toLowerCase(Locale.ROOT);
      if (!RelayOptions.PHASES.contains(phase)) {
        throw new UsageException(
            "--phases: unknown phase '"
                + p
                + "' (of "
                + String.join(",", RelayOptions.PHASES)
                + ")");
      }
      asked.add(phase);
    }
    Set<String> phases = new LinkedHashSet<>();
    for (String phase : RelayOptions.PHASES) {
      if (asked.contains(phase)) {
        phases.add(phase);
      }
    }
    return phases;
  }

  @Override
  protected int run(RelayOptions options) throws Exception {
    return new RelayCommand(options).run();
  }
}
