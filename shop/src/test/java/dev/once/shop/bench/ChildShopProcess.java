package dev.once.shop.bench;

import dev.once.shop.support.ChildShop;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A shop in a JVM of its own, on the benchmark's embedded database, so that the kill phase can kill
 * a real process with SIGKILL. Started as {@code dev.once.shop.support.ChildShop} starts the tests'
 * child shops: this JVM's class path (so no {@code shop.jar} has to be packaged first), {@code
 * -Xmx384m -XX:TieredStopAtLevel=1} (C1 only: a faster start), and the database logins in its
 * environment ({@code SPRING_DATASOURCE_URL}, ...), never on its command line.
 */
final class ChildShopProcess implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path log;

  private ChildShopProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts a child with {@code arguments} and {@code logins} (environment), waits until healthy.
   */
  static ChildShopProcess start(List<String> arguments, Map<String, String> logins, Path log)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> command = new ArrayList<>(ChildShop.javaCommand(port));
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(logins);
    Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    ChildShopProcess child = new ChildShopProcess(process, port, log);
    try {
      child.awaitHealthy(Duration.ofSeconds(180));
    } catch (IOException | RuntimeException | InterruptedException e) {
      child.close();
      throw e;
    }
    return child;
  }

  private void awaitHealthy(Duration limit) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health =
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/health/readiness"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("child shop exited early; its log: " + log);
      }
      try {
        if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYetListening) {
        // still starting
      }
      Thread.sleep(100); // polling a starting process: a benchmark, not a test
    }
    throw new IllegalStateException("child shop not healthy in " + limit + "; its log: " + log);
  }

  /** SIGKILL ({@link Process#destroyForcibly()} on Linux), and waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child shop did not die");
    }
  }

  long pid() {
    return process.pid();
  }

  /** Stops the child (SIGTERM, then SIGKILL after 30 s). The log stays for a look. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
