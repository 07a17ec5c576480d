package dev.once.shop.bench;

import dev.once.embedded.EmbeddedPostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * PostgreSQL's own counts of the benchmark's embedded server, read as its superuser (issue 38's
 * per-event counts), with the benchmark's own statements kept apart:
 *
 * <ul>
 *   <li>{@code pg_stat_database} (commits, rollbacks of the shop's database), {@code pg_stat_wal}
 *       (cluster-wide: WAL syncs, records, bytes) and {@code pg_stat_statements} (calls in the
 *       shop's database, when the server was started with it preloaded) are read over a connection
 *       to database {@code postgres}, so reading them adds nothing to the shop's database;
 *   <li>what must run in the shop's database ({@code pg_stat_user_tables}, the benchmark's progress
 *       polls) goes over one auto-commit connection whose statements are counted ({@link #own()}),
 *       so that they are subtracted exactly;
 *   <li>PostgreSQL's CPU: the postmaster's user and system time with that of its reaped children
 *       ({@code /proc/<pid>/stat} utime, stime, cutime, cstime), plus that of its live children
 *       (backends, walwriter, checkpointer...), in clock ticks of 10 ms.
 * </ul>
 *
 * Session counters reach the shared statistics when a session goes idle (at most once a second,
 * within 10 s) or when it ends; the benchmark therefore snapshots only when no shop is connected
 * ({@link #awaitNoShopSessions}): every session of the shop has ended and flushed its counts.
 */
final class PgProbe implements AutoCloseable {
  static final String DATABASE = "shop";

  /** The counters at one moment. */
  record Snapshot(
      long commits,
      long rollbacks,
      long walSyncs,
      long walRecords,
      long walBytes,
      long statements,
      Map<String, Long> tableWrites,
      long pgCpuTicks,
      long jvmCpuNanos,
      long own) {

    /** Row writes (ins + upd + del) of once.outbox, once.inbox, and every user table. */
    long writes(String table) {
      return tableWrites.getOrDefault(table, 0L);
    }
  }

  private final EmbeddedPostgresServer server;
  private final Connection postgres;
  private final Connection shop;
  private final boolean statements;
  private final long shopPid;
  private long own;

  private PgProbe(EmbeddedPostgresServer server, Connection postgres, Connection shop)
      throws SQLException {
    this.server = server;
    this.postgres = postgres;
    this.shop = shop;
    this.statements = installStatements(postgres);
    this.shopPid = count("SELECT pg_backend_pid()");
  }

  /**
   * Starts the embedded server on {@code dataDirectory} (before any shop, so that it preloads
   * pg_stat_statements), then, once the shop made its database, {@link #open} connects.
   */
  static EmbeddedPostgresServer startServer(Path dataDirectory) {
    return EmbeddedPostgresServer.acquire(
            dataDirectory,
            0,
            Map.of("shared_preload_libraries", "pg_stat_statements", "track_io_timing", "off"),
            org.apache.commons.logging.LogFactory.getLog(PgProbe.class))
        .server();
  }

  static PgProbe open(EmbeddedPostgresServer server) throws SQLException {
    String user = EmbeddedPostgresServer.USERNAME;
    String password = server.superuser().password();
    Connection postgres = DriverManager.getConnection(server.jdbcUrl("postgres"), user, password);
    try {
      return new PgProbe(
          server, postgres, DriverManager.getConnection(server.jdbcUrl(DATABASE), user, password));
    } catch (SQLException | RuntimeException e) {
      postgres.close();
      throw e;
    }
  }

  private static boolean installStatements(Connection postgres) {
    try (Statement s = postgres.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_statements")) {
        return rs.next();
      }
    } catch (SQLException e) {
      return false; // not preloaded: "n/a"
    }
  }

  /** Whether statements are counted (pg_stat_statements preloaded), else why not. */
  String statementsAvailable() {
    if (statements) {
      return null;
    }
    try (Statement s = postgres.createStatement();
        ResultSet rs = s.executeQuery("SHOW shared_preload_libraries")) {
      rs.next();
      return "n/a (no pg_stat_statements: shared_preload_libraries = '" + rs.getString(1) + "')";
    } catch (SQLException e) {
      return "n/a (no pg_stat_statements: " + e.getMessage() + ")";
    }
  }

  /**
   * The counters now; call with no shop session open ({@link #awaitNoShopSessions}). The table
   * counters are read first, then this probe's session flushes its own counts ({@code
   * pg_stat_force_next_flush()} takes effect as the statement ends, before its answer), then the
   * database's are read: {@link Snapshot#own()} is exactly what the probe ran in the shop's
   * database up to that read.
   */
  Snapshot snapshot() throws SQLException {
    Map<String, Long> writes = new LinkedHashMap<>();
    try (ResultSet rs =
        ownQuery(
            "SELECT schemaname || '.' || relname, n_tup_ins + n_tup_upd + n_tup_del"
                + " FROM pg_stat_user_tables")) {
      long total = 0;
      while (rs.next()) {
        writes.put(rs.getString(1), rs.getLong(2));
        total += rs.getLong(2);
      }
      writes.put("all", total);
    }
    count("SELECT 0::bigint FROM pg_stat_force_next_flush()");
    long[] db =
        longs(
            postgres,
            "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = '"
                + DATABASE
                + "'");
    long[] wal =
        longs(postgres, "SELECT wal_sync, wal_records, wal_bytes::bigint FROM pg_stat_wal");
    long calls =
        statements
            ? longs(
                postgres,
                "SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements s JOIN pg_database d"
                    + " ON d.oid = s.dbid WHERE d.datname = '"
                    + DATABASE
                    + "'")[0]
            : -1;
    return new Snapshot(
        db[0], db[1], wal[0], wal[1], wal[2], calls, writes, pgCpuTicks(), Cpu.jvmNanos(), own);
  }

  /** The statements with the most calls in the shop's database since {@code reset}, per call. */
  List<String> topStatements(int n, double perEvents) throws SQLException {
    List<String> top = new ArrayList<>();
    if (!statements) {
      return top;
    }
    try (PreparedStatement s =
        postgres.prepareStatement(
            "SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements s"
                + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ? ORDER BY calls DESC"
                + " LIMIT ?")) {
      s.setString(1, DATABASE);
      s.setInt(2, n);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          String query = rs.getString(2);
          top.add(
              BenchTable.f(
                  "%.3f per event: %s",
                  rs.getLong(1) / perEvents,
                  query.length() > 140 ? query.substring(0, 140) + "…" : query));
        }
      }
    }
    return top;
  }

  /** Forgets pg_stat_statements' entries, so that {@link #topStatements} covers one window. */
  void resetStatements() throws SQLException {
    if (statements) {
      try (Statement s = postgres.createStatement()) {
        s.execute("SELECT pg_stat_statements_reset()");
      }
    }
  }

  /** One {@code bigint} from one statement in the shop's database, counted as the bench's own. */
  long count(String sql, Object... params) throws SQLException {
    try (ResultSet rs = ownQuery(sql, params)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of every row of one statement in the shop's database, as doubles. */
  List<Double> doubles(String sql, Object... params) throws SQLException {
    List<Double> values = new ArrayList<>();
    try (ResultSet rs = ownQuery(sql, params)) {
      while (rs.next()) {
        values.add(rs.getDouble(1));
      }
    }
    return values;
  }

  /** Statements (each its own transaction) the benchmark ran in the shop's database so far. */
  long own() {
    return own;
  }

  /** Waits until no session other than this probe's is connected to the shop's database. */
  void awaitNoShopSessions() throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      long others =
          longs(
              postgres,
              "SELECT count(*) FROM pg_stat_activity WHERE datname = '"
                  + DATABASE
                  + "' AND pid <> "
                  + shopPid)[0];
      if (others == 0) {
        Thread.sleep(200); // the last backend's exit flushes its counts as it goes
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the shop's sessions did not end within 30 s");
  }

  private ResultSet ownQuery(String sql, Object... params) throws SQLException {
    PreparedStatement s = shop.prepareStatement(sql);
    s.closeOnCompletion();
    for (int i = 0; i < params.length; i++) {
      s.setObject(i + 1, params[i]);
    }
    own++; // one auto-commit statement: one transaction and one pg_stat_statements call
    return s.executeQuery();
  }

  private static long[] longs(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      long[] values = new long[rs.getMetaData().getColumnCount()];
      for (int i = 0; i < values.length; i++) {
        values[i] = rs.getLong(i + 1);
      }
      return values;
    }
  }

  /**
   * The postmaster's CPU with its reaped children's, plus its live children's, in clock ticks; -1
   * if /proc cannot tell.
   */
  long pgCpuTicks() {
    long postmaster = server.postmaster().map(ProcessHandle::pid).orElse(-1L);
    if (postmaster < 0) {
      return -1;
    }
    long[] own = Cpu.procStat(postmaster);
    if (own == null) {
      return -1;
    }
    long ticks = own[1] + own[2] + own[3] + own[4];
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          long[] stat = Cpu.procStat(Long.parseLong(name));
          if (stat != null && stat[0] == postmaster) {
            ticks += stat[1] + stat[2] + stat[3] + stat[4];
          }
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks;
  }

  @Override
  public void close() throws SQLException {
    try {
      shop.close();
    } finally {
      postgres.close();
    }
  }
}
