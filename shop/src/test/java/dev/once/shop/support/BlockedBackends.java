package dev.once.shop.support;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Finds a PostgreSQL backend that waits on a row lock, by polling pg_stat_activity with a bound.
 */
public final class BlockedBackends {
  private BlockedBackends() {}

  /** Generous bound for a loaded CI machine; the wait normally ends within milliseconds. */
  private static final Duration LIMIT = Duration.ofSeconds(60);

  private static final Duration POLL = Duration.ofMillis(10);

  /**
   * Waits until some backend's current statement, which mentions {@code table}, is waiting on a
   * lock, and returns its pid.
   */
  public static int awaitBlockedOn(JdbcClient jdbc, String table) {
    return await("a backend blocked on " + table)
        .atMost(LIMIT)
        .pollInterval(POLL)
        .until(
            () ->
                jdbc.sql(
                        """
                        SELECT pid FROM pg_stat_activity
                         WHERE wait_event_type = 'Lock' AND query ILIKE '%' || ? || '%'
                           AND pid <> pg_backend_pid()
                         LIMIT 1
                        """)
                    .param(table)
                    .query(Integer.class)
                    .optional(),
            Optional::isPresent)
        .get();
  }

  /**
   * Opens a transaction that locks the account row, so a payment on it stops right after its
   * Idempotency-Key claim and waits inside its transaction. Roll back or close to release.
   */
  public static Connection lockAccount(DataSource dataSource, String account) throws SQLException {
    Connection blocker = dataSource.getConnection();
    blocker.setAutoCommit(false);
    try (PreparedStatement lock =
        blocker.prepareStatement("SELECT 1 FROM account WHERE id = ? FOR UPDATE")) {
      lock.setString(1, account);
      lock.executeQuery().close();
    }
    return blocker;
  }

  /** Waits until the backend {@code pid} has ended. */
  public static void awaitGone(JdbcClient jdbc, int pid) {
    await("the end of backend " + pid)
        .atMost(LIMIT)
        .pollInterval(POLL)
        .until(
            () ->
                jdbc.sql("SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = ?")
                    .param(pid)
                    .query(Boolean.class)
                    .single());
  }
}
