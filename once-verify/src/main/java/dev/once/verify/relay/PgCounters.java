package dev.once.verify.relay;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PostgreSQL's cumulative statistics of the shop's database, read by once-verify's relay benchmark
 * as the database's owner, with its own statements accounted for:
 *
 * <ul>
 *   <li>{@code pg_stat_database.xact_commit} and {@code xact_rollback} of the shop's database are
 *       read over a connection to database {@code postgres}: a transaction counts in the database
 *       of its session, so these reads add nothing to the shop's counters;
 *   <li>everything that must run in the shop's database (the table counters of {@code
 *       pg_stat_user_tables}, the progress polls, the release) goes over one other connection,
 *       auto-commit, and each statement is counted here ({@link #ownCommits()}, {@link
 *       #ownRollbacks()}) so that the caller can subtract exactly what the benchmark did.
 * </ul>
 *
 * PostgreSQL 15+ keeps a session's counts in the session and flushes them to shared memory when the
 * session goes idle, at most once a second, and within {@value #IDLE_FLUSH_MILLIS} ms of going idle
 * (PGSTAT_IDLE_INTERVAL, 10 s, plus a margin); {@code pg_stat_force_next_flush()} only concerns the
 * calling session. A reader therefore waits {@value #IDLE_FLUSH_MILLIS} ms after the activity it
 * measures before it reads.
 */
final class PgCounters implements AutoCloseable {
  /** PGSTAT_IDLE_INTERVAL (10 s) and a margin. */
  static final long IDLE_FLUSH_MILLIS = 11_500;

  record Database(long commits, long rollbacks) {}

  record Table(long inserted, long updated, long deleted, long hotUpdated) {
    long writes() {
      return inserted + updated + deleted;
    }

    Table minus(Table before) {
      return new Table(
          inserted - before.inserted,
          updated - before.updated,
          deleted - before.deleted,
          hotUpdated - before.hotUpdated);
    }
  }

  private final Connection elsewhere;
  private final Connection inShop;
  private final String database;
  private long ownCommits;
  private long ownRollbacks;

  private PgCounters(Connection elsewhere, Connection inShop, String database) {
    this.elsewhere = elsewhere;
    this.inShop = inShop;
    this.database = database;
  }

  /** Opens both connections: {@code url} is the shop's JDBC URL, ending in its database. */
  static PgCounters open(String url, String user, String password) throws SQLException {
    String database = url.substring(url.lastIndexOf('/') + 1);
    int query = database.indexOf('?');
    if (query >= 0) {
      database = database.substring(0, query);
    }
    String postgres = url.substring(0, url.lastIndexOf('/') + 1) + "postgres";
    Connection elsewhere = DriverManager.getConnection(postgres, user, password);
    try {
      return new PgCounters(elsewhere, DriverManager.getConnection(url, user, password), database);
    } catch (SQLException | RuntimeException e) {
      elsewhere.close();
      throw e;
    }
  }

  /** The shop's database's commit and rollback counters, as flushed so far. */
  Database database() throws SQLException {
    try (PreparedStatement s =
        elsewhere.prepareStatement(
            "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = ?")) {
      s.setString(1, database);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return new Database(rs.getLong(1), rs.getLong(2));
      }
    }
  }

  /** The key of {@link #tables()}'s sum over every table of the shop's database. */
  static final String ALL_TABLES = "all";

  private static final String TABLES =
      """
      SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd FROM pg_stat_user_tables
      WHERE schemaname = 'once' AND relname IN ('outbox', 'inbox')
      UNION ALL
      SELECT 'all', sum(n_tup_ins)::bigint, sum(n_tup_upd)::bigint, sum(n_tup_del)::bigint,
             sum(n_tup_hot_upd)::bigint FROM pg_stat_user_tables
      """;

  /**
   * {@code pg_stat_user_tables} of once.outbox and once.inbox, and their sum over every table
   * ({@link #ALL_TABLES}), in one statement in the shop's database.
   */
  Map<String, Table> tables() throws SQLException {
    Map<String, Table> tables = new LinkedHashMap<>();
    try (ResultSet rs = run(TABLES)) {
      while (rs.next()) {
        tables.put(
            rs.getString(1), new Table(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
      }
    }
    return tables;
  }

  /** One {@code bigint} from one statement in the shop's database (its first column). */
  long number(String sql, Object... params) throws SQLException {
    return (long) row(sql, params)[0];
  }

  /** The first row of one statement in the shop's database, every column as a double. */
  double[] row(String sql, Object... params) throws SQLException {
    try (PreparedStatement s = inShop.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        s.setObject(i + 1, params[i]);
      }
      boolean ok = false;
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        double[] row = new double[rs.getMetaData().getColumnCount()];
        for (int i = 0; i < row.length; i++) {
          row[i] = rs.getDouble(i + 1);
        }
        ok = true;
        return row;
      } finally {
        if (ok) {
          ownCommits++;
        } else {
          ownRollbacks++;
        }
      }
    }
  }

  /** Whether {@code pg_stat_force_next_flush()} may be called (PostgreSQL 15+); one statement. */
  boolean forceNextFlush() {
    try (ResultSet rs = run("SELECT pg_stat_force_next_flush()")) {
      return rs.next();
    } catch (SQLException e) {
      return false;
    }
  }

  private ResultSet run(String sql) throws SQLException {
    Statement s = inShop.createStatement();
    s.closeOnCompletion();
    try {
      ResultSet rs = s.executeQuery(sql);
      ownCommits++;
      return rs;
    } catch (SQLException e) {
      ownRollbacks++;
      s.close();
      throw e;
    }
  }

  /** Transactions the benchmark committed in the shop's database so far. */
  long ownCommits() {
    return ownCommits;
  }

  /** Transactions of the benchmark that failed (rolled back) in the shop's database so far. */
  long ownRollbacks() {
    return ownRollbacks;
  }

  @Override
  public void close() throws SQLException {
    try {
      inShop.close();
    } finally {
      elsewhere.close();
    }
  }
}
