package dev.once.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The client side's bound on a request's waits for its database: a connection's network timeout
 * ({@link Connection#setNetworkTimeout}, a socket time-out in PostgreSQL's driver), which ends a
 * read that gets no answer with an I/O error (SQLSTATE {@code 08006}) instead of waiting for the
 * operating system to give up on the connection, a quarter of an hour later.
 */
final class NetworkTimeouts {
  /** The driver runs the abort on this when the time-out passes; PostgreSQL's ignores it. */
  private static final Executor DIRECT = Runnable::run;

  private NetworkTimeouts() {}

  /**
   * Lowers {@code connection}'s network timeout to {@code bound}, unless it is already at most that
   * (a stricter one of the caller's is kept); a driver without network timeouts is left alone.
   */
  static void bound(Connection connection, Duration bound) throws SQLException {
    int limit = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bound.toMillis()));
    try {
      int current = connection.getNetworkTimeout();
      if (current == 0 || current > limit) {
        connection.setNetworkTimeout(DIRECT, limit);
      }
    } catch (SQLFeatureNotSupportedException | AbstractMethodError e) {
      // A driver without network timeouts: the lease on the server is the only bound.
    }
  }

  /** {@code connection}'s network timeout, or -1 where the driver has none. */
  static int current(Connection connection) {
    try {
      return connection.getNetworkTimeout();
    } catch (SQLException | AbstractMethodError e) {
      return -1;
    }
  }

  /**
   * Sets {@code connection}'s network timeout back to {@code previous} (from {@link #current}) if
   * it changed; a failure (a connection already broken) is ignored, as the pool discards such one.
   */
  static void restore(Connection connection, int previous) {
    if (previous < 0) {
      return;
    }
    try {
      if (connection.getNetworkTimeout() != previous) {
        connection.setNetworkTimeout(DIRECT, previous);
      }
    } catch (SQLException | AbstractMethodError e) {
      // ignored: see above
    }
  }
}
