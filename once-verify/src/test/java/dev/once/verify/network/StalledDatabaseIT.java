package dev.once.verify.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShopLogin;
import dev.once.verify.harness.ShopProcess;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real shop whose PostgreSQL stops answering (a blackhole between them: accepted, never
 * answered, never reset): a payment is answered 503 with {@code Retry-After} within the bound the
 * shop is given (its socket time-out, and Once's lease plus 5 s for the key's transaction), not
 * left waiting; once the network heals, the same request with the same key is 201, and the account
 * is charged once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StalledDatabaseIT {
  private static final Path SHOP = Path.of("../shop/target/shop.jar");

  /** The client waits this long for an answer; the shop's bounds are well inside it. */
  private static final Duration CLIENT_WAIT = Duration.ofSeconds(60);

  @Test
  void aPaymentWhoseDatabaseStallsIs503WithinTheBoundAndItsRetryAfterHealingIs201Once(
      @TempDir Path dir) throws Exception {
    assertThat(Files.isRegularFile(SHOP)).as(SHOP + " (package the shop first)").isTrue();
    String admin = ShopProcess.newAdminToken();
    String account;
    try (BenchDatabase db = BenchDatabase.start()) {
      ShopLogin direct = db.login(BenchDatabase.DATABASE);
      URI uri = URI.create(direct.jdbcUrl().substring("jdbc:".length()));
      try (FaultProxy pg =
          FaultProxy.start("shop->postgres", new InetSocketAddress(uri.getHost(), uri.getPort()))) {
        ShopLogin viaProxy =
            new ShopLogin(
                "jdbc:postgresql://localhost:" + pg.port() + uri.getPath(),
                direct.appUser(),
                direct.appPassword(),
                direct.ownerUser(),
                direct.ownerPassword());
        try (ShopProcess shop =
            ShopProcess.start(
                SHOP,
                viaProxy,
                true,
                ShopProcess.freePort(),
                admin,
                dir.resolve("shop.log"),
                // Hikari lends a connection without a check when it was used in the last 500 ms;
                // here never with one, so the stall meets the request's own statements, where
                // only the bounds under test can end the wait (a check would fail first).
                List.of("-Dcom.zaxxer.hikari.aliveBypassWindowMs=3600000"),
                List.of("--once.idempotency.lease=2s"),
                Map.of())) {
          String apiKey;
          try (ShopApi api = new ShopApi(shop.port())) {
            apiKey = api.createClient(admin, "stall");
            account = api.createAccount(apiKey);
            api.deposit(apiKey, account, "100.00");
          }
          HttpClient http = HttpClient.newHttpClient();
          HttpRequest pay =
              HttpRequest.newBuilder(URI.create("http://localhost:" + shop.port() + "/v1/payments"))
                  .timeout(CLIENT_WAIT)
                  .header("Authorization", "Bearer " + apiKey)
                  .header("Idempotency-Key", "stalled-payment")
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"accountId\":\""
                              + account
                              + "\",\"amount\":\"12.50\",\"currency\":\"EUR\"}"))
                  .build();

          pg.blackhole();
          HttpResponse<String> stalled = http.send(pay, HttpResponse.BodyHandlers.ofString());
          assertThat(stalled.statusCode()).as(stalled.body()).isEqualTo(503);
          assertThat(stalled.headers().firstValue("Retry-After")).isPresent();
          assertThat(stalled.headers().firstValue("Content-Type"))
              .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));

          pg.heal();
          // The pool may still lend a connection that broke during the stall: such a request is
          // another 503 (nothing committed), and the client retries with the same key, at the pace
          // of Retry-After (1 s), as a client of the shop does.
          HttpResponse<String> retried =
              await()
                  .atMost(Duration.ofSeconds(60))
                  .pollDelay(Duration.ZERO)
                  .pollInterval(Duration.ofSeconds(1))
                  .until(
                      () -> http.send(pay, HttpResponse.BodyHandlers.ofString()),
                      answer -> answer.statusCode() != 503);
          assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
          HttpResponse<String> again = http.send(pay, HttpResponse.BodyHandlers.ofString());
          assertThat(again.statusCode()).isEqualTo(201);
          assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
          // The relay's connections went through the same blackhole; healed, it resumes by itself
          // and settles the payment with the provider.
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> paymentStatus(direct, account), status -> !"pending".equals(status));
          assertThat(paymentStatus(direct, account)).isEqualTo("succeeded");
        }
      }
      try (Connection c = direct.ownerDataSource().getConnection();
          PreparedStatement ps =
              c.prepareStatement(
                  "SELECT count(*), sum(amount) FROM payment WHERE account_id = ?")) {
        ps.setString(1, account);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getLong(1)).as("payments of the account").isEqualTo(1);
          assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("12.50");
        }
      }
    }
  }

  /** The status of the account's payment, read directly from the database. */
  private static String paymentStatus(ShopLogin login, String account) throws Exception {
    try (Connection c = login.ownerDataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT status FROM payment WHERE account_id = ?")) {
      ps.setString(1, account);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
