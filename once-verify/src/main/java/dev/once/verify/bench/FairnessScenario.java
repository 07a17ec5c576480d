package dev.once.verify.bench;

import static dev.once.verify.bench.BenchRun.progress;

import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.harness.BackgroundLoad.Counts;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.report.MarkdownTable;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one client's flood costs another client (issue 22), measured, not asserted: a neighbour
 * sends new payments over {@code --neighbour-connections} connections on its own 8 accounts, first
 * alone, then while a flooder sends payments on ONE account from {@code --flood-connections}
 * connections (so its requests queue on that account's row lock, each holding a pooled connection);
 * once on a shop with its cap on requests in flight per client, once with the cap off. Each window
 * is {@code --duration} after {@code --warmup}. The relay, load shedding and the new-keys cap are
 * off on both shops, so that only the in-flight cap differs. Writes fairness.md and prints its
 * table. The shop's own tests assert the cap ({@code ClientFloodTest}); this says what it is worth.
 */
final class FairnessScenario {
  /** The shop's own cap on requests in flight per client (its application.yml). */
  static final int CAP = 8;

  private static final String CAP_PROPERTY = "--once.idempotency.limits.max-in-flight-per-client=";

  private static final int NEIGHBOUR_ACCOUNTS = 8;

  private FairnessScenario() {}

  /** Both runs, capped then not; the table's rows, also written to fairness.md. */
  static List<String> run(BenchRun run) throws Exception {
    List<String> rows = new ArrayList<>();
    rows.add(
        MarkdownTable.row(
            "in-flight cap",
            "flood (" + run.options.floodConnections() + " connections, one account)",
            "neighbour payments/s (" + run.options.neighbourConnections() + " connections)",
            "neighbour 503 / other non-201",
            "flood 201 / other non-201 (429) / 503"));
    rows.add("| --- | --- | ---: | --- | --- |");
    for (boolean capped : List.of(true, false)) {
      rows.addAll(measure(run, capped));
    }
    Files.write(run.options.out().resolve("fairness.md"), rows);
    System.out.println();
    rows.forEach(System.out::println);
    return rows;
  }

  private static List<String> measure(BenchRun run, boolean capped) throws Exception {
    // Both explicit: the harness starts a shop with the cap off unless told (and with load
    // shedding and the new-keys cap off, which this scenario keeps so that only this cap differs).
    List<String> args = List.of(CAP_PROPERTY + (capped ? CAP : 0));
    String cap = capped ? Integer.toString(CAP) : "off";
    progress("fairness: starting the shop, in-flight cap per client " + cap);
    run.startShop(
        BenchDatabase.DATABASE, false, "shop-fairness-" + cap + "-" + run.round + ".log", args);
    String neighbourKey;
    List<String> own = new ArrayList<>();
    String hot;
    try (ShopApi api = new ShopApi(run.shop.port())) {
      neighbourKey = api.createClient(run.admin(), run.tag("neighbour-" + cap));
      for (int i = 0; i < NEIGHBOUR_ACCOUNTS; i++) {
        own.add(fundedAccount(api, neighbourKey));
      }
      String flooderKey = api.createClient(run.admin(), run.tag("flooder-" + cap));
      hot = fundedAccount(api, flooderKey);
      List<String> rows = new ArrayList<>();
      Counts alone = neighbour(run, neighbourKey, own);
      rows.add(row(cap, "none", alone, run, null));
      try (BackgroundLoad flood =
          BackgroundLoad.payments(
              run.shop.port(), flooderKey, run.options.floodConnections(), List.of(hot))) {
        Counts before = flood.counts();
        Counts during = neighbour(run, neighbourKey, own);
        rows.add(row(cap, "running", during, run, flood.counts().minus(before)));
      }
      return rows;
    } finally {
      run.closeShop(null);
    }
  }

  /** The neighbour's load for one window after the warm-up: its answers in the window. */
  private static Counts neighbour(BenchRun run, String apiKey, List<String> accounts)
      throws InterruptedException {
    try (BackgroundLoad load =
        BackgroundLoad.payments(
            run.shop.port(), apiKey, run.options.neighbourConnections(), accounts)) {
      return load.window(run.options.warmup().toMillis(), run.options.duration().toMillis())
          .counts();
    }
  }

  private static String fundedAccount(ShopApi api, String apiKey) throws IOException {
    String account = api.createAccount(apiKey);
    api.deposit(apiKey, account, "1000000000.00");
    return account;
  }

  private static String row(String cap, String flood, Counts neighbour, BenchRun run, Counts by) {
    double seconds = run.options.duration().toMillis() / 1000.0;
    return MarkdownTable.row(
        cap,
        flood,
        String.format(Locale.ROOT, "%.0f", neighbour.created() / seconds),
        neighbour.shed() + " / " + (neighbour.other() + neighbour.errors()),
        by == null ? "" : by.created() + " / " + by.other() + " / " + by.shed());
  }
}
