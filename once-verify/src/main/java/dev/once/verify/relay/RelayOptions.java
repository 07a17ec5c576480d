package dev.once.verify.relay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** What {@code relay} runs, as {@link RelayCli} parsed it. */
record RelayOptions(
    Path shopJar,
    Set<String> phases,
    int rows,
    int seconds,
    int warmup,
    int connections,
    int rounds,
    int orderConnections,
    int orderProducts,
    List<Transport> orderTransports,
    int orders,
    int products,
    int paced,
    int pacedSeconds,
    int hotRows,
    int hold,
    int horizonWindow,
    int killRows,
    int killAfter,
    int purgeRows,
    int purgeSeconds,
    int purgeBatchSize,
    String retention,
    List<String> shopArgs,
    List<String> shopJvmOptions,
    Path out) {

  /** Every phase, in the order they run. */
  static final List<String> PHASES =
      List.of(
          "http", "relay", "archive", "hot", "drain", "orders", "paced", "horizon", "kill",
          "purge");

  /**
   * The phases a run without {@code --phases} runs: all but {@code drain} and {@code paced}, which
   * start a Kafka broker and (the drain) preload pg_stat_statements, a cost on every statement of
   * the other phases; ask for them by name.
   */
  static final List<String> DEFAULT_PHASES =
      PHASES.stream().filter(p -> !p.equals("drain") && !p.equals("paced")).toList();

  /**
   * How many products the set-up creates: the orders phase's and the drain's and paced phase's,
   * which draw from the first of the same hot products.
   */
  int productsNeeded() {
    int orderPhases = runs("drain") || runs("paced") ? products : 0;
    return Math.max(runs("orders") ? orderProducts : 0, orderPhases);
  }

  boolean runs(String phase) {
    return phases.contains(phase);
  }

  /** The arguments every shop gets after its own: the retention, then each {@code --shop-arg}. */
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
            + " orders: %d connections, %d products, %s; drain: %d orders, %d products;"
            + " paced: %d orders/s for %d s; hot rows %d; horizon: hold %d s, windows %d s;"
            + " kill: %d rows, SIGKILL %d s after the release; purge: %d rows, %d s, batch %d;"
            + " delivered-retention %s; extra shop args %s; shop JVM options %s; shop jar %s",
        String.join(",", phases),
        rows,
        connections,
        warmup,
        seconds,
        rounds,
        orderConnections,
        orderProducts,
        orderTransports.stream().map(Transport::toString).collect(Collectors.joining(" then ")),
        orders,
        products,
        paced,
        pacedSeconds,
        hotRows,
        hold,
        horizonWindow,
        killRows,
        killAfter,
        purgeRows,
        purgeSeconds,
        purgeBatchSize,
        retention,
        shopArgs,
        shopJvmOptions,
        shopJar);
  }
}
