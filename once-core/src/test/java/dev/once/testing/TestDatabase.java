package dev.once.testing;

import dev.once.postgres.OnceSchema;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One real embedded PostgreSQL per test JVM, for once-core's tests and, through once-core's
 * test-jar, the starter's. The server has two databases: {@code postgres}, left empty for tests
 * that migrate Once's schema themselves (the starter's, with Flyway), and one with Once's schema
 * applied from its scripts, for tests of the stores. Tests isolate themselves by using distinct
 * client ids and keys, never by wiping shared tables.
 */
public final class TestDatabase {
  private static final String WITH_ONCE_SCHEMA = "once_core";
  private static final EmbeddedPostgres SERVER = start();
  private static final DataSource WITH_SCHEMA = SERVER.getDatabase("postgres", WITH_ONCE_SCHEMA);

  private TestDatabase() {}

  private static EmbeddedPostgres start() {
    try {
      EmbeddedPostgres server =
          EmbeddedPostgres.builder().setServerConfig("max_connections", "200").start();
      try (Connection c = server.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + WITH_ONCE_SCHEMA);
      }
      try (Connection c = server.getDatabase("postgres", WITH_ONCE_SCHEMA).getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA " + OnceSchema.SCHEMA);
        for (String script : OnceSchema.SCRIPTS) {
          s.execute(OnceSchema.script(script));
        }
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL", e);
    } catch (SQLException e) {
      throw new IllegalStateException("could not apply Once's schema", e);
    }
  }

  /**
   * JDBC URL of the empty {@code postgres} database, as the superuser {@code postgres} (named in
   * the URL).
   */
  public static String jdbcUrl() {
    return SERVER.getJdbcUrl("postgres", "postgres");
  }

  /** The database with Once's schema. */
  public static DataSource dataSource() {
    return WITH_SCHEMA;
  }

  /** A new connection to {@link #dataSource()} with auto-commit off, as a caller's would have. */
  public static Connection transaction() throws SQLException {
    Connection c = dataSource().getConnection();
    c.setAutoCommit(false);
    return c;
  }
}
