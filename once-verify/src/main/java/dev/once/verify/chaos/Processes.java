package dev.once.verify.chaos;

import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.ChildProcess;
import dev.once.verify.harness.KafkaBroker;
import dev.once.verify.harness.ShopLogin;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.kafka.KafkaOptions.RoutedListener;
import dev.once.verify.network.FaultProxy;
import dev.once.verify.network.Network;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The processes of a run: psp-simulator, whose journal file keeps what it applied across its own
 * SIGKILLs, and one or more shops on one database, each killed with SIGKILL and restarted on its
 * own port. Every start appends a banner and the process's output to a log file of its own.
 */
final class Processes implements AutoCloseable {
  /** The file name of the shop's broken modes, next to its jar. */
  static final String BROKEN_MODES_JAR = "shop-broken-modes.jar";

  private final Path shopJar;
  private final List<String> shopJvmOptions;
  private final Path simulatorJar;
  private final ChaosDatabase db;
  private final String adminToken;
  private final Path logs;
  private final long seed;
  private final List<String> shopArgs;
  private final List<Slot> slots = new ArrayList<>();
  private final int clientShops;
  private final Object brokerLock = new Object();
  private final int simulatorPort;
  private ChildProcess simulator;
  private int simulatorStarts;
  // With Kafka: the broker, and one further shop slot (the last) that only joins for a while.
  private final boolean kafka;
  private final KafkaBroker broker;
  private int brokerStarts;
  // With --network-faults: each shop reaches PostgreSQL and the provider through proxies of its
  // own.
  private final Network network;
  private final List<RoutedListener> routedListeners;

  /**
   * @param shops how many shop processes
   * @param brokenMode {@code shop.testing.broken-mode} of every shop, or null
   * @param kafka whether the shops publish and consume their events through a Kafka broker that
   *     these processes include ({@link #startBroker}); then a further shop slot exists too
   * @param network with {@code --network-faults}, the proxies through which each shop reaches
   *     PostgreSQL and the provider (made here, one per shop and server); null for direct routes
   */
  Processes(
      Path shopJar,
      Path simulatorJar,
      ChaosDatabase db,
      String adminToken,
      Path logs,
      long seed,
      int shops,
      String brokenMode,
      boolean kafka,
      Network network)
      throws IOException, UsageException {
    this.kafka = kafka;
    this.network = network;
    int count = kafka ? shops + 1 : shops;
    this.shopJar = shopJar;
    this.simulatorJar = simulatorJar;
    this.db = db;
    this.adminToken = adminToken;
    this.logs = logs;
    this.seed = seed;
    this.clientShops = shops;
    // One call, so that no two of the run's processes are given the same port.
    boolean routedBroker = kafka && network != null;
    int[] ports = ShopProcess.freePorts(count + 3 + (routedBroker ? count : 0));
    for (int i = 0; i < count; i++) {
      slots.add(new Slot(i, ports[i]));
    }
    // With Kafka and network faults: a listener of the broker per shop, reached through the shop's
    // proxy, which the listener advertises, so that all of the shop's Kafka traffic goes through
    // it.
    List<RoutedListener> routed = new ArrayList<>();
    for (int i = 0; routedBroker && i < count; i++) {
      int listener = ports[count + 3 + i];
      InetSocketAddress target = new InetSocketAddress("127.0.0.1", listener);
      routed.add(new RoutedListener(listener, network.route(shopName(i), "broker", target).port()));
    }
    this.routedListeners = List.copyOf(routed);
    this.simulatorPort = ports[count];
    this.broker =
        new KafkaBroker(
            kafka ? ports[count + 1] : 0,
            kafka ? ports[count + 2] : 0,
            logs.resolveSibling("kafka-data"),
            List.of("-Xmx384m", ChildProcess.QUICK_START),
            routedListeners.stream().map(RoutedListener::toString).toList());
    List<String> args = new ArrayList<>();
    if (kafka) {
      // Delivered outbox rows stay (the shop deletes them at once otherwise), so the checks know
      // every event the relay published and compare the topics with them.
      args.add("--once.outbox.relay.delivered-retention=1d");
    }
    if (brokenMode != null) {
      args.add("--shop.testing.broken-mode=" + brokenMode);
      // The shop's second switch: a broken mode alone stops its start.
      args.add("--shop.testing.allow-broken-mode=true");
    }
    this.shopArgs = List.copyOf(args);
    this.shopJvmOptions =
        brokenMode == null
            ? List.of(ChildProcess.QUICK_START)
            : List.of(ChildProcess.QUICK_START, ShopProcess.LOADER_PATH + brokenModes(shopJar));
    Files.createDirectories(logs);
  }

  /**
   * The shop's broken modes, {@code shop-broken-modes.jar} next to its jar: test code that a shop
   * has on its class path only when a chaos run asks for a broken mode.
   */
  static Path brokenModes(Path shopJar) throws UsageException {
    Path jar = shopJar.toAbsolutePath().resolveSibling(BROKEN_MODES_JAR);
    if (!Files.isRegularFile(jar)) {
      throw new UsageException(
          "--broken-mode needs "
              + jar
              + ", the shop's broken modes (built from its test sources by ./mvnw package"
              + " -DskipTests)");
    }
    return jar;
  }

  /** The shops' base URLs, in instance order. */
  List<String> shopUrls() {
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < clientShops; i++) {
      urls.add("http://127.0.0.1:" + slots.get(i).port);
    }
    return urls;
  }

  /** The broker's {@code bootstrap.servers}, with Kafka. */
  String bootstrap() {
    return broker.bootstrap();
  }

  /** Shop {@code i}'s {@code bootstrap.servers}: the broker, or its proxy to the broker. */
  private String bootstrap(int i) {
    return routedListeners.isEmpty()
        ? bootstrap()
        : "127.0.0.1:" + routedListeners.get(i).advertisedPort();
  }

  String simulatorUrl() {
    return "http://127.0.0.1:" + simulatorPort;
  }

  int shops() {
    return clientShops;
  }

  /**
   * Starts the Kafka broker (again): {@code once-verify kafka} from this very jar (or class path)
   * as a child process on its port and data directory, and waits for its ready line.
   */
  void startBroker() throws IOException, InterruptedException {
    synchronized (brokerLock) {
      if (!broker.isAlive()) {
        broker.start(banner("kafka.log", ++brokerStarts));
      }
    }
  }

  /** SIGKILL of the Kafka broker; waits until it is gone. */
  void killBroker() throws InterruptedException {
    broker.kill();
  }

  /** The slot of the further shop instance, with Kafka. */
  int extraShop() {
    return clientShops;
  }

  /** Starts psp-simulator (again) on its port and journal, and waits until it is healthy. */
  synchronized void startSimulator() throws IOException, InterruptedException {
    if (simulator != null && simulator.isAlive()) {
      return;
    }
    simulatorStarts++;
    Path log = banner("simulator.log", simulatorStarts);
    simulator =
        ChildProcess.start(
            "psp-simulator",
            List.of(
                ChildProcess.java(),
                "-Xmx128m",
                ChildProcess.QUICK_START,
                "-jar",
                simulatorJar.toString(),
                "--port",
                Integer.toString(simulatorPort),
                "--seed",
                Long.toString(seed + simulatorStarts),
                "--journal",
                logs.resolve("simulator.journal").toString()),
            Map.of(),
            log);
    simulator.awaitHttpOk("127.0.0.1", simulatorPort, "/health");
  }

  /** SIGKILL of psp-simulator; waits until it is gone. */
  synchronized void killSimulator() throws InterruptedException {
    if (simulator != null) {
      simulator.kill();
    }
  }

  /** Starts every shop that does not run, one after the other (their migrations take a lock). */
  void startShops() throws IOException, InterruptedException {
    for (int i = 0; i < clientShops; i++) {
      startShop(i);
    }
  }

  /**
   * The name of shop {@code i}'s routes in the {@link Network}: {@code shop-1}, {@code shop-2}...
   */
  static String shopName(int i) {
    return "shop-" + (i + 1);
  }

  /**
   * How shop {@code i} logs in: directly, or with every server of the URL replaced by the shop's
   * proxy to it ({@code postgres-1}, {@code postgres-2}... in the URL's order).
   */
  private ShopLogin login(int i) throws IOException {
    ShopLogin login = db.login();
    if (network == null) {
      return login;
    }
    String url = login.jdbcUrl();
    String prefix = "jdbc:postgresql://";
    int slash = url.indexOf('/', prefix.length());
    List<String> hosts = new ArrayList<>();
    String[] servers = url.substring(prefix.length(), slash).split(",");
    for (int k = 0; k < servers.length; k++) {
      int colon = servers[k].lastIndexOf(':');
      InetSocketAddress target =
          new InetSocketAddress(
              servers[k].substring(0, colon), Integer.parseInt(servers[k].substring(colon + 1)));
      FaultProxy proxy = network.route(shopName(i), "postgres-" + (k + 1), target);
      hosts.add("127.0.0.1:" + proxy.port());
    }
    return new ShopLogin(
        prefix + String.join(",", hosts) + url.substring(slash),
        login.appUser(),
        login.appPassword(),
        login.ownerUser(),
        login.ownerPassword());
  }

  /** Shop {@code i}'s arguments: the shared ones, and its route to the provider. */
  private List<String> args(int i) throws IOException {
    int port = simulatorPort;
    if (network != null) {
      InetSocketAddress simulator = new InetSocketAddress("127.0.0.1", simulatorPort);
      port = network.route(shopName(i), "provider", simulator).port();
    }
    List<String> args = new ArrayList<>(shopArgs);
    args.add("--shop.provider.url=http://127.0.0.1:" + port);
    return args;
  }

  /** Starts shop {@code i} (again) on its port and waits until it is healthy. */
  void startShop(int i) throws IOException, InterruptedException {
    slots.get(i).start();
  }

  /** SIGKILL of shop {@code i}; waits until it is gone. */
  void killShop(int i) throws InterruptedException {
    slots.get(i).kill();
  }

  /**
   * One shop instance: its port, its process while it runs, how often it started. Its own lock: a
   * slow start of one shop holds up no kill or start of another.
   */
  private final class Slot {
    final int index;
    final int port;
    volatile ShopProcess shop;
    int starts;

    Slot(int index, int port) {
      this.index = index;
      this.port = port;
    }

    synchronized void start() throws IOException, InterruptedException {
      if (shop != null && shop.isAlive()) {
        return;
      }
      starts++;
      shop =
          ShopProcess.start(
              shopJar,
              login(index),
              true,
              port,
              adminToken,
              banner(shopName(index) + ".log", starts),
              shopJvmOptions,
              args(index),
              kafka ? Map.of("SHOP_KAFKA_BOOTSTRAP", bootstrap(index)) : Map.of());
    }

    synchronized void kill() throws InterruptedException {
      if (shop != null && shop.isAlive()) {
        shop.kill();
      }
    }
  }

  /** Stops every process that still runs: the shops, psp-simulator, the broker. */
  @Override
  public void close() {
    List<AutoCloseable> all = new ArrayList<>();
    slots.forEach(slot -> all.add(slot.shop));
    all.add(simulator);
    all.add(broker);
    for (AutoCloseable p : all) {
      try {
        if (p != null) {
          p.close();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the next ones are killed at once
      } catch (Exception e) {
        System.err.println("could not stop a process: " + e);
      }
    }
  }

  private Path banner(String file, int start) throws IOException {
    Path log = logs.resolve(file);
    Files.writeString(
        log, "=== start " + start + " ===\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return log;
  }
}
