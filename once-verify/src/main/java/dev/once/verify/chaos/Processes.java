package dev.once.verify.chaos;

import dev.once.verify.bench.BenchDatabase;
import dev.once.verify.bench.ShopProcess;
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
import java.util.concurrent.TimeUnit;

/**
 * The processes of a run: psp-simulator (started once, so its effect counts survive the shop), and
 * the shop, started, killed with SIGKILL and restarted on the same port and database.
 */
final class Processes implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final Path shopJar;
  private final BenchDatabase db;
  private final String adminToken;
  private final Path logs;
  private final int shopPort;
  private final int simulatorPort;
  private Process simulator;
  private volatile ShopProcess shop;
  private int shopStarts;

  Processes(Path shopJar, BenchDatabase db, String adminToken, Path logs) throws IOException {
    this.shopJar = shopJar;
    this.db = db;
    this.adminToken = adminToken;
    this.logs = logs;
    this.shopPort = ShopProcess.freePort();
    this.simulatorPort = ShopProcess.freePort();
    Files.createDirectories(logs);
  }

  int shopPort() {
    return shopPort;
  }

  int simulatorPort() {
    return simulatorPort;
  }

  void startSimulator(Path jar, long seed) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Xmx128m");
    command.add("-jar");
    command.add(jar.toString());
    command.add("--port");
    command.add(Integer.toString(simulatorPort));
    command.add("--seed");
    command.add(Long.toString(seed));
    simulator =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(logs.resolve("simulator.log").toFile()))
            .start();
    awaitHealthy(simulator, simulatorPort, "/health", "psp-simulator", "simulator.log");
  }

  /** Starts the shop (again) on its port and waits until it is healthy. */
  synchronized void startShop() throws IOException, InterruptedException {
    if (shop != null && shop.isAlive()) {
      return;
    }
    shopStarts++;
    Path log = logs.resolve("shop.log");
    Files.writeString(
        log,
        "=== start " + shopStarts + " ===\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    shop =
        ShopProcess.start(
            shopJar,
            db,
            BenchDatabase.DATABASE,
            true,
            shopPort,
            adminToken,
            log,
            List.of("-XX:TieredStopAtLevel=1"),
            List.of("--shop.provider.url=http://127.0.0.1:" + simulatorPort));
  }

  boolean shopAlive() {
    ShopProcess p = shop;
    return p != null && p.isAlive();
  }

  /** SIGKILL of the shop; waits until it is gone. */
  void killShop() throws InterruptedException {
    ShopProcess p = shop;
    if (p != null && p.isAlive()) {
      p.kill();
    }
  }

  @Override
  public void close() {
    ShopProcess p = shop;
    if (p != null) {
      try {
        p.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    stop(simulator);
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

  private void awaitHealthy(Process p, int port, String path, String what, String log)
      throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IOException(
            what + " exited with " + p.exitValue() + " while starting; see " + logs.resolve(log));
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
