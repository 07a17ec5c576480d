package dev.once.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Moves Once's rows into the past, which for the statements is the same as the database's clock
 * moving ahead: every time Once compares is the database's clock ({@code statement_timestamp()}),
 * which a test cannot set, so tests that need time to pass shift the stored times back instead.
 */
public final class TimeTravel {
  private TimeTravel() {}

  /** The outbox: creation, due, lease and delivery times of every row, {@code by} earlier. */
  public static void outbox(DataSource ds, Duration by) {
    shift(
        ds,
        "UPDATE once.outbox SET created_at = created_at - %1$s,"
            + " next_attempt_at = next_attempt_at - %1$s, lease_until = lease_until - %1$s,"
            + " delivered_at = delivered_at - %1$s",
        by);
  }

  /** Idempotency keys: creation, completion and expiry of every key, {@code by} earlier. */
  public static void keys(DataSource ds, Duration by) {
    shift(
        ds,
        "UPDATE once.idempotency_key SET created_at = created_at - %1$s,"
            + " completed_at = completed_at - %1$s, expires_at = expires_at - %1$s",
        by);
  }

  /** The keys of one client: creation, completion and expiry, {@code by} earlier. */
  public static void keys(DataSource ds, String clientId, Duration by) {
    shift(
        ds,
        "UPDATE once.idempotency_key SET created_at = created_at - %1$s,"
            + " completed_at = completed_at - %1$s, expires_at = expires_at - %1$s"
            + " WHERE client_id = '"
            + clientId.replace("'", "''")
            + "'",
        by);
  }

  /** The inbox: every record received {@code by} earlier. */
  public static void inbox(DataSource ds, Duration by) {
    shift(ds, "UPDATE once.inbox SET received_at = received_at - %1$s", by);
  }

  private static void shift(DataSource ds, String sql, Duration by) {
    String interval = "interval '" + by.toNanos() / 1000 + " microseconds'";
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      s.executeUpdate(sql.formatted(interval));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
