package dev.once.shop.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The flags of {@link RelayBenchmark} (bench/relay.sh). The three positional arguments of the issue
 * 6 benchmark ({@code [rows] [seconds] [connections]}) are still accepted.
 */
record BenchOptions(
    Set<String> phases,
    int rows,
    int seconds,
    int warmup,
    int connections,
    int rounds,
    int orderConnections,
    int hotRows,
    int hold,
    int horizonWindow,
    int killRows,
    int killAfter,
    int purgeRows,
    int purgeSeconds,
    int purgeBatchSize,
    String retention,
    List<String> shopArgs) {

  static final List<String> ALL_PHASES =
      List.of("http", "relay", "hot", "orders", "horizon", "kill", "purge");

  static final String USAGE =
      """
      bench/relay.sh [flags]   (or the issue 6 form: bench/relay.sh [rows] [seconds] [connections])
        --phases a,b,...        of http,relay,hot,orders,horizon,kill,purge (default: all, in order)
        --rows N                relay alone: pre-filled provider.charge rows (50000)
        --seconds S             measured window of each HTTP load (15)
        --warmup S              warm-up before each HTTP load (8)
        --connections N         HTTP connections of the payment loads (16)
        --rounds N              http: rounds of relay on, then relay off, each on a fresh shop (1)
        --order-connections N   orders: connections placing orders (50)
        --hot-rows N            hot: rows of one aggregate (500)
        --hold S                horizon: how long the transaction stays open (60)
        --horizon-window S      horizon: measured window before and after the hold (10)
        --kill-rows N           kill: pre-filled rows the child shop delivers and is killed in (2000)
        --kill-after S          kill: seconds after the release until the SIGKILL (3)
        --purge-rows N          purge: expired keys and old inbox records one purge run meets (200000)
        --purge-seconds S       purge: sustained payments with 5 s retentions, sizes sampled (60)
        --purge-batch-size N    purge: batch size of both purges in the sustained run (0: the
                                shop's, 500 keys and 1000 records); a small one brings a purge's
                                per-run cap below what this machine writes
        --retention D           once.outbox.relay.delivered-retention of every shop
                                ('default', the shop's own: the shop as deployed)
        --shop-arg --name=value another argument for every shop started (repeatable)
      """;

  static BenchOptions parse(String[] args) {
    Set<String> phases = new LinkedHashSet<>(ALL_PHASES);
    int rows = 50_000;
    int seconds = 15;
    int warmup = 8;
    int connections = 16;
    int rounds = 1;
    int orderConnections = 50;
    int hotRows = 500;
    int hold = 60;
    int horizonWindow = 10;
    int killRows = 2_000;
    int killAfter = 3;
    int purgeRows = 200_000;
    int purgeSeconds = 60;
    int purgeBatchSize = 0;
    String retention = "default";
    List<String> shopArgs = new ArrayList<>();
    int positional = 0;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        int value = Integer.parseInt(arg);
        switch (positional++) {
          case 0 -> rows = value;
          case 1 -> seconds = value;
          case 2 -> connections = value;
          default ->
              throw new IllegalArgumentException("unexpected argument " + arg + "\n" + USAGE);
        }
        continue;
      }
      if (arg.equals("--help") || arg.equals("-h")) {
        System.out.println(USAGE);
        System.exit(0);
      }
      String name = arg;
      String value;
      int eq = arg.indexOf('=');
      if (eq > 0 && !arg.startsWith("--shop-arg=")) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      } else if (arg.startsWith("--shop-arg=")) {
        name = "--shop-arg";
        value = arg.substring("--shop-arg=".length());
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(arg + " needs a value\n" + USAGE);
        }
        value = args[++i];
      }
      switch (name) {
        case "--phases" -> {
          phases = new LinkedHashSet<>();
          Set<String> asked = new LinkedHashSet<>();
          for (String p : value.split(",")) {
            String phase = p.strip().toLowerCase(Locale.ROOT);
            if (!ALL_PHASES.contains(phase)) {
              throw new IllegalArgumentException("unknown phase " + p + "\n" + USAGE);
            }
            asked.add(phase);
          }
          for (String phase : ALL_PHASES) { // always in the documented order
            if (asked.contains(phase)) {
              phases.add(phase);
            }
          }
        }
        case "--rows" -> rows = Integer.parseInt(value);
        case "--seconds" -> seconds = Integer.parseInt(value);
        case "--warmup" -> warmup = Integer.parseInt(value);
        case "--connections" -> connections = Integer.parseInt(value);
        case "--rounds" -> rounds = Integer.parseInt(value);
        case "--order-connections" -> orderConnections = Integer.parseInt(value);
        case "--hot-rows" -> hotRows = Integer.parseInt(value);
        case "--hold" -> hold = Integer.parseInt(value);
        case "--horizon-window" -> horizonWindow = Integer.parseInt(value);
        case "--kill-rows" -> killRows = Integer.parseInt(value);
        case "--kill-after" -> killAfter = Integer.parseInt(value);
        case "--purge-rows" -> purgeRows = Integer.parseInt(value);
        case "--purge-seconds" -> purgeSeconds = Integer.parseInt(value);
        case "--purge-batch-size" -> purgeBatchSize = Integer.parseInt(value);
        case "--retention" -> retention = value;
        case "--shop-arg" -> shopArgs.add(value);
        default -> throw new IllegalArgumentException("unknown flag " + name + "\n" + USAGE);
      }
    }
    return new BenchOptions(
        phases,
        rows,
        seconds,
        warmup,
        connections,
        rounds,
        orderConnections,
        hotRows,
        hold,
        horizonWindow,
        killRows,
        killAfter,
        purgeRows,
        purgeSeconds,
        purgeBatchSize,
        retention,
        List.copyOf(shopArgs));
  }

  boolean runs(String phase) {
    return phases.contains(phase);
  }

  /** The arguments every shop gets, in-process or child, after its own. */
  List<String> commonShopArgs() {
    List<String> args = new ArrayList<>();
    if (!retention.equals("default")) {
      args.add("--once.outbox.relay.delivered-retention=" + retention);
    }
    args.addAll(shopArgs);
    return args;
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "phases %s; rows %d; HTTP: %d connections, %d s warm-up, %d s measured, %d round(s);"
            + " orders: %d connections; hot rows %d; horizon: hold %d s, windows %d s;"
            + " kill: %d rows, SIGKILL %d s after the release; purge: %d rows, %d s, batch %d;"
            + " delivered-retention %s;"
            + " extra shop args %s",
        String.join(",", phases),
        rows,
        connections,
        warmup,
        seconds,
        rounds,
        orderConnections,
        hotRows,
        hold,
        horizonWindow,
        killRows,
        killAfter,
        purgeRows,
        purgeSeconds,
        purgeBatchSize,
        retention,
        shopArgs);
  }
}
