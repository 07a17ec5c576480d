package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.ShopApplication;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * G5 for real: a second shop JVM on the same database is killed with SIGKILL while a payment is
 * inside its transaction. Nothing of the payment may be committed, the key may not be stuck, and
 * the retry (served by this JVM's shop) must pay exactly once.
 */
class ShopCrashTest extends ShopIntegrationTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();
  private static final Duration START_LIMIT = Duration.ofSeconds(180);

  @Autowired DataSource dataSource;

  @Value("${spring.datasource.url}")
  String jdbcUrl;

  @Value("${spring.datasource.password}")
  String password;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void paymentInFlightWhenTheJvmIsKilledCommitsNothingAndTheRetryPaysOnce() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "crash-" + System.nanoTime();
    String body = "{\"accountId\":\"" + account + "\",\"amount\":\"25.00\",\"currency\":\"EUR\"}";

    int port = freePort();
    Path log = Files.createTempFile("shop-child", ".log");
    Process child = startChildShop(port, log);
    try {
      awaitHealthy(child, port, log);
      CompletableFuture<?> inFlight;
      int backend;
      try (Connection blocker = BlockedBackends.lockAccount(dataSource, account)) {
        ShopHttp childHttp = new ShopHttp(port, ADMIN_TOKEN);
        inFlight =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    childHttp.post("/v1/payments", client.apiKey(), key, body);
                  } catch (RuntimeException expected) {
                    // The child dies mid-request: the connection breaks.
                  }
                },
                THREADS);
        // The child's transaction has claimed the key and waits on the account row.
        backend = BlockedBackends.awaitBlockedOn(jdbc, "account");

        child.destroyForcibly();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        blocker.rollback();
      }
      // The orphaned session ends when PostgreSQL notices its client is gone.
      BlockedBackends.awaitGone(jdbc, backend);
      inFlight.get(60, TimeUnit.SECONDS);
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(log);
    }

    assertThat(count("SELECT count(*) FROM payment WHERE account_id = ?", account)).isZero();
    assertThat(count("SELECT count(*) FROM once.outbox WHERE payload->>'accountId' = ?", account))
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'", account))
        .isZero();
    assertThat(count("SELECT count(*) FROM once.idempotency_key WHERE idem_key = ?", key)).isZero();

    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, body);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    ShopResponse again = http.post("/v1/payments", client.apiKey(), key, body);
    assertThat(again.body()).isEqualTo(retry.body());
    assertThat(again.header("Idempotent-Replayed")).hasValue("true");
    assertThat(
            count(
                "SELECT count(*) FROM operation WHERE account_id = ? AND kind = 'charge'", account))
        .isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("75.0000");
  }

  private long count(String sql, String param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }

  private Process startChildShop(int port, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx384m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            ShopApplication.class.getName(),
            "--server.port=" + port,
            "--spring.datasource.url=" + jdbcUrl,
            "--spring.datasource.username=postgres",
            "--shop.admin-token=" + ADMIN_TOKEN,
            "--spring.main.banner-mode=off");
    ProcessBuilder child = new ProcessBuilder(command);
    // In the environment, which only this user can read, not on the command line, which all can.
    child.environment().put("SPRING_DATASOURCE_PASSWORD", password);
    return child.redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static void awaitHealthy(Process child, int port, Path log) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
            .timeout(Duration.ofSeconds(5))
            .build();
    Instant deadline = Instant.now().plus(START_LIMIT);
    while (Instant.now().isBefore(deadline)) {
      if (!child.isAlive()) {
        throw new AssertionError("child shop exited early:\n" + Files.readString(log));
      }
      try {
        if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYetListening) {
        // still starting
      }
      // A bounded wait on the child itself: returns early if it dies, otherwise paces the poll.
      try {
        child.onExit().get(200, TimeUnit.MILLISECONDS);
      } catch (TimeoutException stillRunning) {
        // expected while it starts
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
