package dev.once.verify.relay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
    Path out) {

  /** Every phase, in the order they run. */
  static final List<String> PHASES =
      List.of("http", "relay", "archive", "hot", "orders", "horizon", "kill", "purge");

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
            + " orders: %d connections; hot rows %d; horizon: hold %d s, windows %d s;"
            + " kill: %d rows, SIGKILL %d s after the release; purge: %d rows, %d s, batch %d;"
            + " delivered-retention %s; extra shop args %s; shop jar %s",
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
        shopArgs,
        shopJar);
  }
}
