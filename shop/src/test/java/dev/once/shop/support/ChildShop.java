package dev.once.shop.support;

import dev.once.shop.ShopApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.core.env.Environment;

/**
 * A second shop in its own JVM, on the test JVM's database, for tests that kill a real process with
 * SIGKILL ({@link #kill()}). It gets the test context's database logins through its environment,
 * never its command line, where other processes could read the passwords.
 */
public final class ChildShop implements AutoCloseable {
  private static final Duration START_LIMIT = Duration.ofSeconds(180);

  private final Process process;
  private final int port;
  private final Path log;

  private ChildShop(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts a child shop with the admin token of the tests and {@code arguments} ({@code
   * --name=value}), and waits until it is healthy.
   */
  public static ChildShop start(Environment environment, List<String> arguments)
      throws IOException {
    int port = freePort();
    Path log = Files.createTempFile("shop-child", ".log");
    List<String> command = new ArrayList<>(javaCommand(port));
    command.add("--shop.admin-token=" + ShopIntegrationTest.ADMIN_TOKEN);
    command.add("--spring.main.banner-mode=off");
    if (arguments.stream().noneMatch(a -> a.startsWith("--once.outbox.load-shedding.enabled="))) {
      // As in the tests' own context (ShopOnEmbeddedPostgres): rows other tests left in the
      // shared database must not make the child refuse new work.
      command.add("--once.outbox.load-shedding.enabled=false");
    }
    for (String cap : List.of("max-in-flight-per-client", "new-keys-per-minute")) {
      String setting = "--once.idempotency.limits." + cap + "=";
      if (arguments.stream().noneMatch(a -> a.startsWith(setting))) {
        // As in the tests' own context: tests drive many concurrent requests from one client.
        command.add(setting + "0");
      }
    }
    command.addAll(arguments);
    ProcessBuilder child = new ProcessBuilder(command);
    child.environment().putAll(databaseLogins(environment));
    ChildShop shop =
        new ChildShop(
            child.redirectErrorStream(true).redirectOutput(log.toFile()).start(), port, log);
    try {
      shop.awaitHealthy();
    } catch (Exception | Error e) {
      shop.close();
      throw e;
    }
    return shop;
  }

  /**
   * The command that starts a shop in a JVM of its own on {@code port}, on this JVM's class path;
   * shop arguments ({@code --name=value}) follow it.
   */
  public static List<String> javaCommand(int port) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m",
        "-XX:TieredStopAtLevel=1",
        "-cp",
        System.getProperty("java.class.path"),
        ShopApplication.class.getName(),
        "--server.port=" + port);
  }

  /**
   * The database logins of {@code environment} (a running shop's), as the environment variables a
   * child shop reads them from: never on its command line, where other processes could read the
   * passwords.
   */
  public static Map<String, String> databaseLogins(Environment environment) {
    Map<String, String> logins = new LinkedHashMap<>();
    for (String property :
        List.of(
            "spring.datasource.url",
            "spring.datasource.username",
            "spring.datasource.password",
            "spring.flyway.user",
            "spring.flyway.password")) {
      String value = environment.getProperty(property);
      if (value != null) {
        logins.put(property.toUpperCase(Locale.ROOT).replace('.', '_'), value);
      }
    }
    return logins;
  }

  /** The child's HTTP port. */
  public int port() {
    return port;
  }

  /** The child over HTTP, with the tests' admin token. */
  public ShopHttp http() {
    return new ShopHttp(port, ShopIntegrationTest.ADMIN_TOKEN);
  }

  /** SIGKILL, and waits until the process is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new AssertionError("child shop did not die");
    }
  }

  /** SIGSTOP: the process stops where it is, threads, heartbeat and sockets with it. */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  /** What the child has logged so far. */
  public String log() throws IOException {
    return Files.readString(log);
  }

  private void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
    if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** Kills the child if it still runs and deletes its log. */
  @Override
  public void close() throws IOException {
    process.destroyForcibly();
    Files.deleteIfExists(log);
  }

  private void awaitHealthy() throws IOException {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health =
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/health/readiness"))
            .timeout(Duration.ofSeconds(5))
            .build();
    Instant deadline = Instant.now().plus(START_LIMIT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new AssertionError("child shop exited early:\n" + Files.readString(log));
      }
      try {
        if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYetListening) {
        // still starting
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      // A bounded wait on the child itself: returns early if it dies, otherwise paces the poll.
      try {
        process.onExit().get(200, TimeUnit.MILLISECONDS);
      } catch (TimeoutException stillRunning) {
        // expected while it starts
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError(
        "child shop not healthy in " + START_LIMIT + ":\n" + Files.readString(log));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
