package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.outbox.OutboxAdmin;
import dev.once.postgres.PostgresStores;
import dev.once.verify.harness.BackgroundLoad;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.Folders;
import dev.once.verify.harness.KafkaBroker;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShopLogin;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.harness.Sql;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * What every phase of one {@code relay} run shares: the options, the embedded PostgreSQL, the shop
 * process running on it (at most one at a time, always on the same port), the Kafka broker of the
 * phases that go through Kafka (a child process, started when one first needs it), the owner's JDBC
 * connection, the outbox admin of once-core on the owner's login, the client, its accounts and the
 * hot products, and the table.
 */
final class RelayRun implements AutoCloseable {
  static final String ADMIN = ShopProcess.newAdminToken();
  static final int ACCOUNTS = 64;
  static final long HOT_STOCK = 1_000_000_000L;

  final RelayOptions options;
  final RelayTable table = new RelayTable();
  final List<String> accounts = new ArrayList<>();
  final BenchDatabase db;
  final ShopLogin login;
  final Sql sql;
  final OutboxAdmin outbox;
  final Path logs;
  final int port;
  String apiKey;
  private final long started = System.nanoTime();
  private final int[] brokerPorts;
  private KafkaBroker broker;
  private Path brokerData;
  private ShopProcess shop;
  private boolean relayOn;
  private Transport transport;
  private int starts;

  RelayRun(RelayOptions options, BenchDatabase db, Path logs) throws IOException, SQLException {
    this.options = options;
    this.db = db;
    this.logs = logs;
    this.login = db.login(BenchDatabase.DATABASE);
    // One call, so that the shop and the broker are never given the same port.
    int[] ports = ShopProcess.freePorts(3);
    this.port = ports[0];
    this.brokerPorts = new int[] {ports[1], ports[2]};
    this.sql = new Sql(db.connectAsOwner(BenchDatabase.DATABASE));
    this.outbox = OutboxAdmin.of(PostgresStores.outboxStore(login.ownerDataSource()));
  }

  /**
   * The relay's workers as the shop's own start line says ({@code Outbox relay ... started: N
   * worker(s)}), or "?" if its log does not say.
   */
  static String relayWorkers(Path log) {
    try (Stream<String> lines = Files.lines(log)) {
      return lines
          .map(WORKERS::matcher)
          .filter(Matcher::find)
          .map(m -> m.group(1))
          .reduce((first, last) -> last)
          .orElse("?");
    } catch (IOException | UncheckedIOException e) {
      return "?";
    }
  }

  private static final Pattern WORKERS =
      Pattern.compile("Outbox relay \\S+ started: (\\d+) worker");

  /** The log of the shop started last. */
  Path shopLog() {
    return logs.resolve("shop-" + starts + ".log");
  }

  /** Starts the shop from its jar, relay on (load shedding on, as deployed) or off (it off). */
  ShopProcess startShop(boolean relay, List<String> extra)
      throws IOException, InterruptedException {
    return startShop(relay, extra, List.of());
  }

  /** As above, with JVM options for the shop's process. */
  ShopProcess startShop(boolean relay, List<String> extra, List<String> jvmOptions)
      throws IOException, InterruptedException {
    return startShop(relay, Transport.IN_PROCESS, extra, jvmOptions);
  }

  /** As above, its events in process or through the run's Kafka broker (started if need be). */
  ShopProcess startShop(
      boolean relay, Transport transport, List<String> extra, List<String> jvmOptions)
      throws IOException, InterruptedException {
    // Empty: in process, whatever this JVM's environment says.
    String bootstrap = transport == Transport.KAFKA ? startBroker() : "";
    long start = System.nanoTime();
    List<String> args = new ArrayList<>();
    if (relay) {
      // ShopProcess turns shedding off unless an argument sets it: with the relay on, the shop
      // runs as deployed. With it off nothing drains the outbox, and shedding would refuse every
      // payment once the first rows are 5 s old.
      args.add("--once.outbox.load-shedding.enabled=true");
      // Its start line names the relay's workers, which the table's header reports.
      args.add("--logging.level.dev.once.outbox.OutboxRelay=INFO");
    }
    args.add("--spring.main.banner-mode=off");
    args.addAll(options.commonShopArgs());
    args.addAll(extra);
    Path log = logs.resolve("shop-" + ++starts + ".log");
    shop =
        ShopProcess.start(
            options.shopJar(),
            login,
            relay,
            port,
            ADMIN,
            log,
            shopJvm(jvmOptions),
            args,
            Map.of("SHOP_KAFKA_BOOTSTRAP", bootstrap));
    relayOn = relay;
    this.transport = transport;
    if (apiKey != null) {
      firstRequest();
    }
    progress(
        f(
            "shop %d started, relay %s, %s, in %.1f s (port %d, log %s)",
            shop.pid(),
            relay ? "on" : "off",
            transport,
            (System.nanoTime() - start) / 1e9,
            port,
            log));
    return shop;
  }

  /**
   * A relay-on shop whose events go {@code transport}: the running one if it is such a shop, else
   * one (re)started.
   */
  void relayOnShop(Transport transport) throws IOException, InterruptedException {
    if (shop == null || !relayOn || this.transport != transport) {
      closeShop();
      startShop(true, transport, List.of(), List.of());
    }
  }

  /**
   * The run's Kafka broker ({@code once-verify kafka} as a child process on a data folder of its
   * own, logging into kafka.log): started unless it runs; its bootstrap address.
   */
  private String startBroker() throws IOException, InterruptedException {
    if (broker == null) {
      brokerData = Files.createTempDirectory("once-verify-kafka-");
      broker =
          new KafkaBroker(
              brokerPorts[0], brokerPorts[1], brokerData, List.of("-Xmx384m"), List.of());
      table.header(
          "- Kafka: a single-node broker (once-verify kafka, -Xmx384m) as the run's child process"
              + " at "
              + broker.bootstrap()
              + ", started when a phase first went through Kafka");
    }
    if (!broker.isAlive()) {
      long start = System.nanoTime();
      broker.start(logs.resolve("kafka.log"));
      progress(f("Kafka broker started in %.1f s", (System.nanoTime() - start) / 1e9));
    }
    return broker.bootstrap();
  }

  /** The running shop's CPU so far (its process, every thread), ns; -1 if none runs. */
  long shopCpuNanos() {
    return shop == null ? -1 : shop.cpu().cpuNanos();
  }

  /** The first {@code n} hot products of the set-up. */
  List<String> skus(int n) {
    return IntStream.range(0, n).mapToObj(i -> "hot-" + i).toList();
  }

  ShopProcess startShop(boolean relay) throws IOException, InterruptedException {
    return startShop(relay, List.of());
  }

  void restartShop(boolean relay) throws IOException, InterruptedException {
    closeShop();
    startShop(relay);
  }

  /** {@code --shop-jvm}'s options, then a phase's own (which thus win where both set one). */
  private List<String> shopJvm(List<String> phaseOptions) {
    List<String> all = new ArrayList<>(options.shopJvmOptions());
    all.addAll(phaseOptions);
    return all;
  }

  /** Stops the shop (SIGTERM, as the in-process shop's close did); safe to repeat. */
  void closeShop() throws InterruptedException {
    if (shop != null) {
      shop.close();
      shop = null;
    }
  }

  boolean shopRunning() {
    return shop != null;
  }

  boolean relayOn() {
    return shop != null && relayOn;
  }

  /**
   * One authenticated read before any load: a fresh shop looks up a key it has not seen work yet
   * with a few lookups at a time and answers 503 to the rest (ApiKeyAuthenticator), which a load of
   * 16 first requests would otherwise meet.
   */
  private void firstRequest() {
    try (ShopApi api = new ShopApi(port)) {
      api.get(apiKey, "/v1/accounts/" + accounts.get(0));
    } catch (IOException e) {
      progress("  first request failed: " + e);
    }
  }

  /**
   * A client, 64 funded accounts and the hot products the order phases draw from ({@link
   * RelayOptions#productsNeeded}), over HTTP.
   */
  void setUp() throws IOException {
    try (ShopApi api = new ShopApi(port)) {
      apiKey = api.createClient(ADMIN, "bench");
      for (int i = 0; i < ACCOUNTS; i++) {
        String account = api.createAccount(apiKey);
        api.deposit(apiKey, account, "1000000000.00");
        accounts.add(account);
      }
      for (String sku : skus(options.productsNeeded())) {
        api.createProduct(apiKey, sku, "0.01", "EUR", HOT_STOCK);
      }
    }
    progress(
        "set up: a client, "
            + ACCOUNTS
            + " funded accounts, "
            + options.productsNeeded()
            + " hot products");
  }

  BackgroundLoad payments() {
    return BackgroundLoad.payments(port, apiKey, options.connections(), List.copyOf(accounts));
  }

  /** Waits until the outbox backlog is 0: milliseconds it took, or -1 after {@code limit}. */
  long awaitBacklog(Duration limit, String what) throws InterruptedException {
    long start = System.nanoTime();
    long nextReport = start + 10_000_000_000L;
    while (true) {
      long backlog = outbox.stats().backlog();
      long now = System.nanoTime();
      if (backlog == 0) {
        return (now - start) / 1_000_000;
      }
      if (now - start > limit.toNanos()) {
        progress("  backlog still " + backlog + " after " + limit + " (" + what + ")");
        return -1;
      }
      if (now > nextReport) {
        progress("  backlog " + backlog + " (" + what + ")");
        nextReport = now + 10_000_000_000L;
      }
      Thread.sleep(200); // polling the shop's progress; a benchmark, not a test
    }
  }

  /** Sleeps {@code seconds}, sampling the backlog every 250 ms if asked: max, sum, count. */
  long[] sample(int seconds, boolean backlog) throws InterruptedException {
    long[] stats = new long[3];
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.max(1, Math.min(250, (end - System.nanoTime()) / 1_000_000)));
      if (backlog) {
        long b = outbox.stats().backlog();
        stats[0] = Math.max(stats[0], b);
        stats[1] += b;
        stats[2]++;
      }
    }
    return stats;
  }

  /** The counters' two connections to the shop's database, as its owner. */
  PgCounters counters() throws SQLException {
    return PgCounters.open(login.jdbcUrl(), login.ownerUser(), login.ownerPassword());
  }

  double elapsedSeconds() {
    return (System.nanoTime() - started) / 1e9;
  }

  void progress(String line) {
    System.out.println(f("[%6.1f s] %s", elapsedSeconds(), line));
  }

  /** Stops the shop and the broker, and deletes the broker's data; safe to repeat. */
  @Override
  public void close() throws Exception {
    try {
      closeShop();
      if (broker != null) {
        broker.close();
      }
    } finally {
      if (brokerData != null) {
        Folders.delete(brokerData);
      }
      sql.close();
    }
  }
}
