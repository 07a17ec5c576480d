package dev.once.outbox;

import dev.once.postgres.OnceSchema;
import dev.once.postgres.OutboxSqlAccess;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database of its own with Once's schema, on the test JVM's embedded server: the relay's purge,
 * stats and claims see the whole table, so their tests must not share it with other tests' rows.
 */
final class OutboxDatabase {
  private OutboxDatabase() {}

  static DataSource fresh() {
    String name = "outbox_" + UUID.randomUUID().toString().replace("-", "");
    String url = TestDatabase.jdbcUrl();
    try (Connection c = java.sql.DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(url.replaceFirst("/postgres\\?", "/" + name + "?"));
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + OnceSchema.SCHEMA);
      for (String script : OnceSchema.SCRIPTS) {
        s.execute(OnceSchema.script(script));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return ds;
  }

  static Connection transaction(DataSource ds) throws SQLException {
    Connection c = ds.getConnection();
    c.setAutoCommit(false);
    return c;
  }

  /** Appends and commits one message per aggregate, in order; returns their entries. */
  static List<OutboxEntry> appendCommitted(
      DataSource ds, Outbox outbox, String type, String... aggregates) throws SQLException {
    List<OutboxEntry> entries = new ArrayList<>();
    try (Connection tx = transaction(ds)) {
      for (String aggregate : aggregates) {
        entries.add(outbox.append(tx, new OutboxMessage(type, aggregate, "{\"n\":1}")));
      }
      tx.commit();
    }
    return entries;
  }

  static String state(DataSource ds, long id) throws SQLException {
    return column(ds, id, "state");
  }

  static String column(DataSource ds, long id, String column) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT " + column + "::text FROM once.outbox WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static long scalar(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static final Pattern BUFFERS =
      Pattern.compile("Buffers: shared hit=(\\d+)(?: read=(\\d+))?");

  /** Vacuums and analyzes the outbox, so that the planner knows what is in it. */
  static void analyze(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE once.outbox");
    }
  }

  /** Shared buffers one claim of up to 100 rows of type t reads; the claim is rolled back. */
  static long claimBuffers(DataSource ds) throws SQLException {
    String claim =
        OutboxSqlAccess.claim()
            .replaceFirst("\\?", "ARRAY['t']")
            .replaceFirst("\\?", "100")
            .replaceFirst("\\?", "gen_random_uuid()")
            .replaceFirst("\\?", "60000000");
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute(OutboxSqlAccess.claimSettings());
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + claim)) {
          while (rs.next()) {
            Matcher m = BUFFERS.matcher(rs.getString(1));
            if (m.find()) {
              return Long.parseLong(m.group(1))
                  + (m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
            }
          }
        }
      } finally {
        c.rollback();
      }
    }
    throw new AssertionError("no Buffers line in the plan");
  }
}
