package dev.once.verify.chaos;

import dev.once.verify.cli.UsageException;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.system.StartFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The processes of a run: psp-simulator, whose journal file keeps what it applied across its own
 * SIGKILLs, and one or more shops on one database, each killed with SIGKILL and restarted on its
 * own port. Every start appends a banner and the process's output to a log file of its own.
 */
final class Processes implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

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
  private final int[] shopPorts;
  private final ShopProcess[] shops;
  private final int[] shopStarts;
  private final int clientShops;
  // One lock per shop slot: a slow start of one shop holds up no kill or start of another.
  private final Object[] slotLocks;
  private final Object brokerLock = new Object();
  private final int simulatorPort;
  private Process simulator;
  private int simulatorStarts;
  // With Kafka: the broker, and one further shop slot (the last) that only joins for a while.
  private final boolean kafka;
  private final int brokerPort;
  private final int controllerPort;
  private final Path brokerData;
  private Process broker;
  private int brokerStarts;

  /**
   * @param shops how many shop processes
   * @param brokenMode {@code shop.testing.broken-mode} of every shop, or null
   */
  Processes(
      Path shopJar,
      Path simulatorJar,
      ChaosDatabase db,
      String adminToken,
      Path logs,
      long seed,
      int shops,
      String brokenMode)
      throws IOException, UsageException {
    this(shopJar, simulatorJar, db, adminToken, logs, seed, shops, brokenMode, false);
  }

  /**
   * @param kafka whether the shops publish and consume their events through a Kafka broker that
   *     these processes include ({@link #startBroker}); then a further shop slot exists too
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
      boolean kafka)
      throws IOException, UsageException {
    this.kafka = kafka;
    int slots = kafka ? shops + 1 : shops;
    this.shopJar = shopJar;
    this.simulatorJar = simulatorJar;
    this.db = db;
    this.adminToken = adminToken;
    this.logs = logs;
    this.seed = seed;
    this.shopPorts = new int[slots];
    this.shops = new ShopProcess[slots];
    this.shopStarts = new int[slots];
    this.clientShops = shops;
    this.slotLocks = new Object[slots];
    for (int i = 0; i < slots; i++) {
      slotLocks[i] = new Object();
    }
    // One call, so that no two of the run's processes are given the same port.
    int[] ports = ShopProcess.freePorts(slots + 3);
    System.arraycopy(ports, 0, shopPorts, 0, slots);
    this.simulatorPort = ports[slots];
    this.brokerPort = kafka ? ports[slots + 1] : 0;
    this.controllerPort = kafka ? ports[slots + 2] : 0;
    this.brokerData = logs.resolveSibling("kafka-data");
    List<String> args = new ArrayList<>();
    if (kafka) {
      // Delivered outbox rows stay (the shop deletes them at once otherwise), so the checks know
      // every event the relay published and compare the topics with them.
      args.add("--once.outbox.relay.delivered-retention=1d");
    }
    args.add("--shop.provider.url=http://127.0.0.1:" + simulatorPort);
    if (brokenMode != null) {
      args.add("--shop.testing.broken-mode=" + brokenMode);
      // The shop's second switch: a broken mode alone stops its start.
      args.add("--shop.testing.allow-broken-mode=true");
    }
    this.shopArgs = List.copyOf(args);
    this.shopJvmOptions =
        brokenMode == null
            ? List.of("-XX:TieredStopAtLevel=1")
            : List.of("-XX:TieredStopAtLevel=1", ShopProcess.LOADER_PATH + brokenModes(shopJar));
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
      urls.add("http://127.0.0.1:" + shopPorts[i]);
    }
    return urls;
  }

  /** The broker's {@code bootstrap.servers}, with Kafka. */
  String bootstrap() {
    return "127.0.0.1:" + brokerPort;
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
      if (broker != null && broker.isAlive()) {
        return;
      }
      brokerStarts++;
      Path log = banner("kafka.log", brokerStarts);
      long from = Files.size(log);
      List<String> command = new ArrayList<>();
      command.add(java());
      command.add("-Xmx384m");
      command.add("-XX:TieredStopAtLevel=1");
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add("dev.once.verify.Main");
      command.add("kafka");
      command.add("--port");
      command.add(Integer.toString(brokerPort));
      command.add("--controller-port");
      command.add(Integer.toString(controllerPort));
      command.add("--data");
      command.add(brokerData.toString());
      broker =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (true) {
        String text = Files.readString(log);
        if (text.length() > from
            && text.substring((int) Math.min(from, text.length()))
                .contains(dev.once.verify.kafka.KafkaCommand.READY)) {
          return;
        }
        if (!broker.isAlive()) {
          throw StartFailure.exited("the Kafka broker", broker.exitValue(), log);
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("the Kafka broker was not ready in " + START_TIMEOUT);
        }
        Thread.sleep(200); // polling a starting process's log
      }
    }
  }

  /** SIGKILL of the Kafka broker; waits until it is gone. */
  void killBroker() throws InterruptedException {
    Process p;
    synchronized (brokerLock) {
      p = broker;
    }
    if (p != null && p.isAlive()) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
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
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-jar");
    command.add(simulatorJar.toString());
    command.add("--port");
    command.add(Integer.toString(simulatorPort));
    command.add("--seed");
    command.add(Long.toString(seed + simulatorStarts));
    command.add("--journal");
    command.add(logs.resolve("simulator.journal").toString());
    simulator =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    awaitHealthy(simulator, simulatorPort, "psp-simulator", log);
  }

  /** SIGKILL of psp-simulator; waits until it is gone. */
  synchronized void killSimulator() throws InterruptedException {
    if (simulator != null && simulator.isAlive()) {
      simulator.destroyForcibly();
      simulator.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Starts every shop that does not run, one after the other (their migrations take a lock). */
  void startShops() throws IOException, InterruptedException {
    for (int i = 0; i < clientShops; i++) {
      startShop(i);
    }
  }

  /** Starts shop {@code i} (again) on its port and waits until it is healthy. */
  void startShop(int i) throws IOException, InterruptedException {
    synchronized (slotLocks[i]) {
      if (shops[i] != null && shops[i].isAlive()) {
        return;
      }
      shopStarts[i]++;
      Path log = banner("shop-" + (i + 1) + ".log", shopStarts[i]);
      shops[i] =
          ShopProcess.start(
              shopJar,
              db.login(),
              true,
              shopPorts[i],
              adminToken,
              log,
              shopJvmOptions,
              shopArgs,
              kafka ? Map.of("SHOP_KAFKA_BOOTSTRAP", bootstrap()) : Map.of());
    }
  }

  /** SIGKILL of shop {@code i}; waits until it is gone. */
  void killShop(int i) throws InterruptedException {
    synchronized (slotLocks[i]) {
      ShopProcess p = shops[i];
      if (p != null && p.isAlive()) {
        p.kill();
      }
    }
  }

  @Override
  public void close() {
    synchronized (shops) {
      for (ShopProcess p : shops) {
        if (p != null) {
          try {
            p.close();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }
    stop(simulator);
    stop(broker);
  }

  private Path banner(String file, int start) throws IOException {
    Path log = logs.resolve(file);
    Files.writeString(
        log, "=== start " + start + " ===\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return log;
  }

  private static void stop(Process p) {
    if (p == null || !p.isAlive()) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitHealthy(Process p, int port, String what, Path log)
      throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw StartFailure.exited(what, p.exitValue(), log);
      }
      try {
        if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200); // polling a starting process
    }
    throw new IOException(what + " did not become healthy in " + START_TIMEOUT);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
