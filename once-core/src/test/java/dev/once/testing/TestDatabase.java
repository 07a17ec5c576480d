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
 * One real embedded PostgreSQL per test JVM, with Once's schema applied once. Tests isolate
 * themselves by using distinct client ids and keys, never by wiping shared tables.
 */
public final class TestDatabase {
  private static final EmbeddedPostgres SERVER = start();

  private TestDatabase() {}

  private static EmbeddedPostgres start() {
    try {
      EmbeddedPostgres server =
          EmbeddedPostgres.builder().setServerConfig("max_connections", "200").start();
      try (Connection c = server.getPostgresDatabase().getConnection();
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

  public static DataSource dataSource() {
    return SERVER.getPostgresDatabase();
  }

  /** A new connection with auto-commit off, as a caller's transaction would have. */
  public static Connection transaction() throws SQLException {
    Connection c = dataSource().getConnection();
    c.setAutoCommit(false);
    return c;
  }
}
