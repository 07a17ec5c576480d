package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.support.Concurrently;
import dev.once.shop.support.LogCapture;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.SmallPoolShopTest;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pool with no free connection: every request answers 503 {@code service-unavailable} with {@code
 * Retry-After} (never a 500), and the log shows one WARN without a stack trace per interval, whose
 * successor counts the answers it left out, not one line per request.
 */
class PoolExhaustionTest extends SmallPoolShopTest {
  @Test
  void aFullPoolAnswers503AndLogsOneWarningPerInterval() throws Exception {
    TestClient client = TestClient.create(http);
    String account = client.openAccount("EUR");
    String payment = "{\"accountId\":\"" + account + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}";
    // Whatever an earlier test of this context logged belongs to an interval that is over.
    clock.advance(DatabaseUnavailable.LOG_INTERVAL);
    int requests = 12;
    List<Connection> held = holdEveryConnection();
    try (LogCapture logs = LogCapture.start()) {
      // Reads, idempotent writes (both stop at the API-key lookup) and admin writes (the
      // transaction cannot begin), at the same time.
      List<ShopResponse> answers =
          Concurrently.run(
              requests,
              i ->
                  switch (i % 3) {
                    case 0 -> client.get("/v1/accounts/" + account);
                    case 1 -> client.post("/v1/payments", payment);
                    default -> http.admin("/admin/v1/clients", "{\"name\":\"while full\"}");
                  });
      for (ShopResponse answer : answers) {
        answer.assertProblem(503, "service-unavailable");
        assertThat(answer.header("Retry-After")).hasValue("1");
      }
      assertThat(warnings(logs)).as(describe(logs)).hasSize(1);
      logs.assertNoErrors();

      clock.advance(DatabaseUnavailable.LOG_INTERVAL);
      client.get("/v1/accounts/" + account).assertProblem(503, "service-unavailable");

      List<ILoggingEvent> warnings = warnings(logs);
      assertThat(warnings).as(describe(logs)).hasSize(2);
      assertThat(warnings.get(1).getFormattedMessage()).contains((requests - 1) + " more");
      logs.assertNoErrors();
    } finally {
      for (Connection connection : held) {
        connection.close();
      }
    }
    // The pool is back: so is the service.
    client.get("/v1/accounts/" + account).assertStatus(200);
  }

  /** Takes every connection of the pool, so that no request can get one. */
  private List<Connection> holdEveryConnection() throws SQLException {
    List<Connection> held = new ArrayList<>();
    for (int i = 0; i < POOL_SIZE; i++) {
      held.add(dataSource.getConnection());
    }
    return held;
  }

  private static List<ILoggingEvent> warnings(LogCapture logs) {
    return logs.events().stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
  }

  private static String describe(LogCapture logs) {
    return "warnings: "
        + warnings(logs).stream()
            .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage())
            .toList();
  }
}
