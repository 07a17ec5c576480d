package dev.once.testing;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.Login;
import dev.once.postgres.OnceSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * One real embedded PostgreSQL per test JVM, for once-core's tests and, through once-core's
 * test-jar, the starter's and once-kafka's: the once-embedded-postgres module's server (private,
 * password on every connection), in a temporary data directory that is deleted when the JVM exits.
 * The server has two databases: {@code postgres}, left empty for tests that migrate Once's schema
 * themselves (the starter's, with Flyway), and one with Once's schema applied from its scripts, for
 * tests of the stores. Tests isolate themselves by using distinct client ids and keys, never by
 * wiping shared tables. Every connection is the superuser's.
 */
public final class TestDatabase {
  private static final String WITH_ONCE_SCHEMA = "once_core";
  private static final Log LOG = LogFactory.getLog(TestDatabase.class);
  private static final EmbeddedPostgresServer SERVER = start();
  private static final DataSource WITH_SCHEMA = dataSource(WITH_ONCE_SCHEMA);

  private TestDatabase() {}

  private static EmbeddedPostgresServer start() {
    try {
      EmbeddedPostgresServer server =
          EmbeddedPostgresServer.temporary(
              "once-test-postgres", Map.of("max_connections", "200"), LOG);
      Login superuser = server.superuser();
      try (Connection c =
              DriverManager.getConnection(
                  server.jdbcUrl("postgres"), superuser.user(), superuser.password());
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + WITH_ONCE_SCHEMA);
      }
      try (Connection c =
              DriverManager.getConnection(
                  server.jdbcUrl(WITH_ONCE_SCHEMA), superuser.user(), superuser.password());
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA " + OnceSchema.SCHEMA);
        for (String script : OnceSchema.SCRIPTS) {
          s.execute(OnceSchema.script(script));
        }
      }
      return server;
    } catch (SQLException e) {
      throw new IllegalStateException("could not apply Once's schema", e);
    }
  }

  private static DataSource dataSource(String database) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(SERVER.jdbcUrl(database));
    dataSource.setUser(SERVER.superuser().user());
    dataSource.setPassword(SERVER.superuser().password());
    return dataSource;
  }

  /**
   * JDBC URL of the empty {@code postgres} database, as the superuser {@code postgres}, whose name
   * and password are in the URL (so it needs no other credentials).
   */
  public static String jdbcUrl() {
    Login superuser = SERVER.superuser();
    return SERVER.jdbcUrl("postgres")
        + "?user="
        + superuser.user()
        + "&password="
        + superuser.password(); // URL-safe Base64: no escaping needed
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
