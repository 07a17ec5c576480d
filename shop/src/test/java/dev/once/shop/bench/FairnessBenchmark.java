package dev.once.shop.bench;

import static dev.once.shop.bench.BenchTable.f;

import dev.once.shop.ShopApplication;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * What one client's flood costs another client, measured, not asserted: a neighbour sends new
 * payments over {@code --neighbour} connections on its own accounts, first alone, then while a
 * flooder sends payments on ONE account from {@code --flood} connections (so its requests queue on
 * that account's row lock, each holding a pooled connection); once with the shop's cap on requests
 * in flight per client, once with it off. Prints the neighbour's payments/s and its refusals in
 * each case, and what the flood got. The new-keys cap is off in both runs, so that only the
 * in-flight cap differs (the neighbour alone may exceed 3,000 keys a minute on a fast machine).
 *
 * <p>{@code bench/fairness.sh [seconds] [flood connections] [neighbour connections]}, defaults 10,
 * 64, 4. One embedded PostgreSQL per run, in a temporary folder.
 */
public final class FairnessBenchmark {
  private static final String ADMIN = "fairness-bench-admin-token-0123456789";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private FairnessBenchmark() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int flood = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int neighbour = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    Path data = Files.createTempDirectory("fairness-bench");
    List<String> lines = new ArrayList<>();
    for (boolean capped : List.of(true, false)) {
      lines.addAll(
          run(data.resolve(capped ? "capped" : "uncapped"), capped, seconds, flood, neighbour));
    }
    System.out.println();
    System.out.println(
        f(
            "| in-flight cap | flood (%d connections, one account) | neighbour payments/s (%d"
                + " connections) | neighbour 503 / other non-201 | flood 201 / other non-201 (429) / 503 |",
            flood, neighbour));
    System.out.println("| --- | --- | ---: | --- | --- |");
    lines.forEach(System.out::println);
  }

  private static List<String> run(Path data, boolean capped, int seconds, int flood, int neighbour)
      throws Exception {
    List<String> args =
        InProcessShop.args(
            ADMIN,
            data,
            "--once.outbox.relay.enabled=false",
            "--once.outbox.load-shedding.enabled=false",
            "--once.idempotency.limits.new-keys-per-minute=0");
    if (!capped) {
      args.add("--once.idempotency.limits.max-in-flight-per-client=0");
    }
    try (ConfigurableApplicationContext shop =
        SpringApplication.run(ShopApplication.class, args.toArray(String[]::new))) {
      String cap =
          capped
              ? shop.getEnvironment()
                  .getProperty("once.idempotency.limits.max-in-flight-per-client")
              : "off";
      String base = "http://localhost:" + shop.getEnvironment().getProperty("local.server.port");
      String neighbourKey = client(base, "neighbour");
      List<String> own = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        own.add(fundedAccount(base, neighbourKey));
      }
      String flooderKey = client(base, "flooder");
      String hot = fundedAccount(base, flooderKey);

      List<String> lines = new ArrayList<>();
      HttpLoad.Counts alone = measure(base, neighbourKey, neighbour, own, seconds);
      lines.add(line(cap, "none", alone, seconds, null));
      try (HttpLoad flooding = HttpLoad.payments(base, flooderKey, flood, List.of(hot))) {
        HttpLoad.Counts before = flooding.counts();
        HttpLoad.Counts during = measure(base, neighbourKey, neighbour, own, seconds);
        lines.add(line(cap, "running", during, seconds, flooding.counts().minus(before)));
      }
      return lines;
    }
  }

  private static HttpLoad.Counts measure(
      String base, String apiKey, int connections, List<String> accounts, int seconds)
      throws InterruptedException {
    try (HttpLoad load = HttpLoad.payments(base, apiKey, connections, accounts)) {
      HttpLoad.Counts start = load.counts();
      Thread.sleep(seconds * 1000L); // a benchmark's measuring window, not a test's wait
      return load.counts().minus(start);
    }
  }

  private static String line(
      String cap, String flood, HttpLoad.Counts neighbour, int seconds, HttpLoad.Counts flooder) {
    return f(
        "| %s | %s | %.0f | %d / %d | %s |",
        cap,
        flood,
        neighbour.created() / (double) seconds,
        neighbour.shed(),
        neighbour.other() + neighbour.errors(),
        flooder == null
            ? ""
            : f("%d / %d / %d", flooder.created(), flooder.other(), flooder.shed()));
  }

  private static String client(String base, String name) throws IOException, InterruptedException {
    return post(base, "/admin/v1/clients", ADMIN, null, "{\"name\":\"" + name + "\"}")
        .get("apiKey")
        .stringValue();
  }

  private static String fundedAccount(String base, String apiKey)
      throws IOException, InterruptedException {
    String account =
        post(base, "/v1/accounts", apiKey, UUID.randomUUID().toString(), "{\"currency\":\"EUR\"}")
            .get("id")
            .stringValue();
    post(
        base,
        "/v1/accounts/" + account + "/deposits",
        apiKey,
        UUID.randomUUID().toString(),
        "{\"amount\":\"1000000000.00\"}");
    return account;
  }

  private static JsonNode post(String base, String path, String token, String key, String body)
      throws IOException, InterruptedException {
    return BenchHttp.post(HTTP, base, path, token, key, body);
  }
}
