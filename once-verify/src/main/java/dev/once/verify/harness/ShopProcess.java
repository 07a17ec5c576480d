package dev.once.verify.harness;

import dev.once.verify.load.CpuClock;
import dev.once.verify.system.ProcessCpu;
import dev.once.verify.system.ProcessMemory;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shop as a child process: {@code java -Xmx256m -jar shop.jar} on a free port, connected to the
 * benchmark's PostgreSQL with the two roles, the relay off (it has its own benchmark,
 * bench/relay.sh) except for the orders scenario, whose stock is reserved by the relay's inbox
 * consumers, logging at WARN into a file of the results folder. Passwords and the admin token go
 * through the environment, not the command line, so other local users cannot read them in the
 * process list.
 */
public final class ShopProcess implements AutoCloseable {
  /**
   * A JVM option, followed by jar files, that adds those jars to the shop's class path (Spring
   * Boot's {@code loader.path}); with it, the shop starts through Spring Boot's {@code
   * PropertiesLauncher}.
   */
  public static final String LOADER_PATH = "-Dloader.path=";

  private final ChildProcess process;
  private final int port;

  private ShopProcess(ChildProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts the shop on the PostgreSQL that {@code login} reaches, on {@code port} (a shop restarted
   * after a kill answers where its clients already send), its relay on or off, and waits until
   * {@code /actuator/health/readiness} answers 200.
   *
   * @param relay whether the outbox relay (and with it the inbox consumers) runs
   * @param jvmOptions further JVM options, after {@code -Xmx256m}
   * @param extraArgs further {@code --name=value} arguments, e.g. to switch Once's filter off
   * @param environment further environment variables (e.g. SHOP_KAFKA_BOOTSTRAP)
   */
  public static ShopProcess start(
      Path jar,
      ShopLogin login,
      boolean relay,
      int port,
      String adminToken,
      Path log,
      List<String> jvmOptions,
      List<String> extraArgs,
      Map<String, String> environment)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.add("-Xmx256m");
    command.addAll(jvmOptions);
    if (jvmOptions.stream().anyMatch(option -> option.startsWith(LOADER_PATH))) {
      // Spring Boot's launcher that reads loader.path; the jar's own one does not.
      command.add("-cp");
      command.add(jar.toString());
      command.add("org.springframework.boot.loader.launch.PropertiesLauncher");
    } else {
      command.add("-jar");
      command.add(jar.toString());
    }
    command.add("--server.port=" + port);
    command.add("--spring.datasource.url=" + login.jdbcUrl());
    command.add("--spring.datasource.username=" + login.appUser());
    command.add("--spring.flyway.user=" + login.ownerUser());
    command.add("--once.outbox.relay.enabled=" + relay);
    // The benchmark measures what the shop does with every request it takes: load shedding (on in
    // the shop) would answer 503 once a relay-off run's rows, or the orders scenario's queue, are
    // 5 s old.
    addUnlessGiven(command, extraArgs, "--once.outbox.load-shedding.enabled=false");
    // One client drives every connection of the benchmark: the shop's per-client caps (a
    // fairness limit between clients) would refuse most of its requests.
    addUnlessGiven(command, extraArgs, "--once.idempotency.limits.max-in-flight-per-client=0");
    addUnlessGiven(command, extraArgs, "--once.idempotency.limits.new-keys-per-minute=0");
    addUnlessGiven(command, extraArgs, "--logging.level.root=WARN");
    command.addAll(extraArgs);
    Map<String, String> env = new HashMap<>(environment);
    env.put("SPRING_DATASOURCE_PASSWORD", login.appPassword());
    env.put("SPRING_FLYWAY_PASSWORD", login.ownerPassword());
    env.put("SHOP_ADMIN_TOKEN", adminToken);
    ChildProcess process = ChildProcess.start("the shop", command, env, log);
    process.awaitHttpOk("localhost", port, "/actuator/health/readiness");
    return new ShopProcess(process, port);
  }

  /** A fresh random admin token for the shops a run starts (it reaches them by environment). */
  public static String newAdminToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Adds one of the defaults above unless {@code extraArgs} set the same property: Spring joins a
   * property given twice on the command line with a comma ({@code false,true}) instead of keeping
   * the last, so a caller's own value (e.g. {@code --once.outbox.load-shedding.enabled=true} of the
   * relay benchmark, which runs the relay-on shop as deployed) replaces the default instead.
   */
  private static void addUnlessGiven(List<String> command, List<String> extraArgs, String arg) {
    String name = arg.substring(0, arg.indexOf('=') + 1);
    if (extraArgs.stream().noneMatch(extra -> extra.startsWith(name))) {
      command.add(arg);
    }
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  /** The shop JVM's CPU time (all its threads). */
  public CpuClock cpu() {
    return ProcessCpu.of(process.pid());
  }

  /** Its resident memory now, or null where unreadable. */
  public ProcessMemory memory() {
    return ProcessMemory.read(process.pid());
  }

  /** Whether the shop's process still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the shop with SIGKILL, as a crash would, and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.kill();
  }

  /** Stops the shop (SIGTERM, then SIGKILL after 20 s) and waits for it. Safe to repeat. */
  @Override
  public void close() throws InterruptedException {
    process.close();
  }

  /** A port that is free now. */
  public static int freePort() throws IOException {
    return freePorts(1)[0];
  }

  /**
   * {@code n} different ports that are free now: each is held open until all are chosen, so two
   * processes of one run are never given the same port.
   */
  public static int[] freePorts(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket socket = new ServerSocket(0);
        held.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
  }
}
