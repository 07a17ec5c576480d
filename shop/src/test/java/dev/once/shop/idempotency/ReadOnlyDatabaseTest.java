package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariDataSource;
import dev.once.shop.support.DatabaseLogins;
import dev.once.shop.support.LogCapture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A failover seen from the shop: the connections it holds die, and the server its address now
 * reaches takes no writes ({@code default_transaction_read_only}, SQLSTATE 25006, as a demoted
 * primary or a standby does). Writes answer 503 with {@code Retry-After}, not 500, with no error
 * logged per request and nothing written; once the address reaches a writable server again, the
 * pool has dropped the read-only connections its failed writes used, so a retry succeeds within as
 * many attempts as the pool has connections, not after their {@code maxLifetime}.
 */
class ReadOnlyDatabaseTest extends ShopIntegrationTest {
  @Autowired DataSource dataSource;

  private DataSource superuserLogin;
  private JdbcClient superuser;

  @BeforeEach
  void asSuperuser() {
    superuserLogin = DatabaseLogins.superuser(Path.of(DATA_DIR));
    superuser = JdbcClient.create(superuserLogin);
  }

  @AfterEach
  void writableAgain() throws SQLException {
    // The superuser's own new session is read-only too until the setting is gone.
    try (Connection session = superuserLogin.getConnection();
        Statement statement = session.createStatement()) {
      statement.execute("SET default_transaction_read_only = off");
      statement.execute("ALTER DATABASE " + database() + " RESET default_transaction_read_only");
    }
  }

  @Test
  void aReadOnlyServerIsA503UntilItIsWritableAndThePoolDropsItsConnections() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "read-only-" + System.nanoTime();
    failOver();

    ShopResponse failed;
    try (LogCapture logs = LogCapture.start()) {
      failed = http.post("/v1/payments", client.apiKey(), key, payment(account));
      // No ERROR, and no stack trace but the pool's own, once per connection it drops.
      assertThat(logs.events())
          .noneMatch(
              e ->
                  e.getLevel().isGreaterOrEqual(Level.ERROR)
                      || (e.getThrowableProxy() != null
                          && !e.getLoggerName().startsWith("com.zaxxer.hikari")));
    }
    failed.assertProblem(503, "service-unavailable");
    assertThat(failed.header("Retry-After")).isPresent();

    writableAgain();
    int poolSize = dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize();
    ShopResponse retry = null;
    int attempts = 0;
    while (attempts <= poolSize) {
      attempts++;
      retry = http.post("/v1/payments", client.apiKey(), key, payment(account));
      if (retry.status() != 503) {
        break;
      }
    }
    retry.assertStatus(201);
    assertThat(attempts).isLessThanOrEqualTo(poolSize + 1);
    assertThat(
            jdbc.sql("SELECT count(*) FROM payment WHERE account_id = ?")
                .param(account)
                .query(Long.class)
                .single())
        .isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("90.0000");
  }

  /**
   * New sessions of the shop's database are read-only, and the shop's open ones end, as its
   * connections to a primary that went away would.
   */
  private void failOver() {
    superuser
        .sql("ALTER DATABASE " + database() + " SET default_transaction_read_only = on")
        .update();
    superuser
        .sql(
            "SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND usename = ? AND pid <> pg_backend_pid()")
        .param(DatabaseLogins.applicationRole())
        .query()
        .listOfRows();
  }

  private String database() {
    return superuser.sql("SELECT quote_ident(current_database())").query(String.class).single();
  }

  private static String payment(String account) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"10.00\",\"currency\":\"EUR\"}";
  }
}
