package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What PostgreSQL counts server-wide, read as its superuser over a connection to database {@code
 * postgres} (so reading adds nothing to the shop's database): {@code pg_stat_wal} (WAL fsyncs,
 * records, bytes: every process's, the walwriter's included), {@code pg_stat_statements} (calls in
 * the shop's database, {@code BEGIN} and {@code COMMIT} included, when the server preloads it:
 * {@link #PRELOAD}), and {@code pg_stat_activity} (whether the shop is still connected).
 */
final class ServerStats implements AutoCloseable {
  /** The server setting that {@code pg_stat_statements} needs, set when the server starts. */
  static final Map<String, String> PRELOAD =
      Map.of("shared_preload_libraries", "pg_stat_statements");

  private static final String WAL =
      "SELECT wal_sync, wal_records, wal_bytes::bigint FROM pg_stat_wal";

  private static final String CALLS =
      "SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements s"
          + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ?";

  private static final String TOP =
      "SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements s"
          + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ? ORDER BY calls DESC LIMIT ?";

  private static final String SESSIONS =
      "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND usename = ?";

  record Wal(long syncs, long records, long bytes) {}

  private final Connection postgres;
  private final String database;
  private final String statementsMissing;

  /**
   * @param postgres a superuser's connection to database {@code postgres}, which this closes
   * @param database the shop's database
   */
  ServerStats(Connection postgres, String database) throws SQLException {
    this.postgres = postgres;
    this.database = database;
    this.statementsMissing = installStatements();
  }

  /** Creates the extension if the server preloads it: null, else why statements are n/a. */
  private String installStatements() throws SQLException {
    try (Statement s = postgres.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      s.executeQuery("SELECT count(*) FROM pg_stat_statements").close();
      return null;
    } catch (SQLException e) {
      try (Statement s = postgres.createStatement();
          ResultSet rs = s.executeQuery("SHOW shared_preload_libraries")) {
        rs.next();
        return "n/a (no pg_stat_statements: shared_preload_libraries = '" + rs.getString(1) + "')";
      }
    }
  }

  /** Null if statements are counted, else why not. */
  String statementsMissing() {
    return statementsMissing;
  }

  Wal wal() throws SQLException {
    try (Statement s = postgres.createStatement();
        ResultSet rs = s.executeQuery(WAL)) {
      rs.next();
      return new Wal(rs.getLong(1), rs.getLong(2), rs.getLong(3));
    }
  }

  /** Statements run in the shop's database so far (pg_stat_statements calls), or -1: n/a. */
  long statements() throws SQLException {
    return statementsMissing != null ? -1 : count(CALLS, database);
  }

  /** Forgets pg_stat_statements' entries, so that {@link #top} covers one window. */
  void resetStatements() throws SQLException {
    if (statementsMissing == null) {
      try (Statement s = postgres.createStatement()) {
        s.execute("SELECT pg_stat_statements_reset()");
      }
    }
  }

  /** The {@code n} statements with the most calls since the reset, per event: lines of a note. */
  List<String> top(int n, long events) throws SQLException {
    List<String> top = new ArrayList<>();
    if (statementsMissing != null || events == 0) {
      return top;
    }
    try (PreparedStatement s = postgres.prepareStatement(TOP)) {
      s.setString(1, database);
      s.setInt(2, n);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          String query = rs.getString(2);
          top.add(
              f(
                  "%.3f per event: %s",
                  rs.getLong(1) / (double) events,
                  query.length() > 140 ? query.substring(0, 140) + "…" : query));
        }
      }
    }
    return top;
  }

  /**
   * Waits (30 s at most) until no session of {@code user} is connected to the shop's database, so
   * that each has flushed its counters to the shared statistics (a session does as it ends).
   */
  void awaitNoSessions(String user) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (count(SESSIONS, database, user) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(user + "'s sessions did not end within 30 s");
      }
      Thread.sleep(100); // polling; a benchmark, not a test
    }
    Thread.sleep(200); // the last backend's exit flushes its counts as it goes
  }

  private long count(String sql, String... params) throws SQLException {
    try (PreparedStatement s = postgres.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        s.setString(i + 1, params[i]);
      }
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Override
  public void close() throws SQLException {
    postgres.close();
  }
}
