package dev.once.verify.harness;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.apache.commons.logging.LogFactory;

/**
 * One embedded PostgreSQL for the whole run, in a fresh temporary folder: the
 * once-embedded-postgres module's server (durable commits, {@code fsync} and {@code
 * synchronous_commit} on, PostgreSQL's defaults otherwise; localhost only, a password on every
 * connection). It holds database {@code shop} with the module's two roles, those of
 * docs/security.md "An external PostgreSQL": {@code shop_owner} (owner, runs the migrations) and
 * {@code shop_app} (the application), and, for the orders scenario, database {@code shop_orders} of
 * the same owner, so the relay that scenario needs never sees the payments' outbox.
 */
public final class BenchDatabase implements AutoCloseable {
  /** The database the shop runs on. */
  public static final String DATABASE = "shop";

  public static final String ORDERS_DATABASE = "shop_orders";

  private final Path folder;
  private final EmbeddedDatabase database;
  private boolean closed;

  private BenchDatabase(Path folder, EmbeddedDatabase database) {
    this.folder = folder;
    this.database = database;
  }

  /** Starts the server and creates the roles and the database. */
  public static BenchDatabase start() throws IOException, SQLException {
    return start(Map.of());
  }

  /**
   * As {@link #start()}, with server settings of {@code postgresql.conf}, e.g. {@code
   * shared_preload_libraries}, which only a start can set.
   */
  public static BenchDatabase start(Map<String, String> settings) throws IOException, SQLException {
    Path folder = Files.createTempDirectory("once-verify-");
    EmbeddedPostgresServer server;
    try {
      server =
          EmbeddedPostgresServer.acquire(
                  folder.resolve("data"), 0, settings, LogFactory.getLog(BenchDatabase.class))
              .server();
    } catch (RuntimeException e) {
      Folders.delete(folder);
      throw e;
    }
    try {
      return new BenchDatabase(
          folder, server.database(DATABASE, LogFactory.getLog(BenchDatabase.class)));
    } catch (RuntimeException e) {
      server.stop();
      Folders.delete(folder);
      throw e;
    }
  }

  /**
   * Creates database {@code name}, owned by {@code shop_owner}, that only the two roles may connect
   * to.
   */
  public void createDatabase(String name) throws SQLException {
    database.createDatabase(name);
  }

  /** JDBC URL of database {@code shop}. */
  public String jdbcUrl() {
    return jdbcUrl(DATABASE);
  }

  /** JDBC URL of database {@code database}. */
  public String jdbcUrl(String database) {
    return this.database.server().jdbcUrl(database);
  }

  /**
   * How a shop logs in to {@code database}: as {@code shop_app}, migrating as {@code shop_owner}.
   */
  public ShopLogin login(String database) {
    return new ShopLogin(
        jdbcUrl(database),
        this.database.application().user(),
        appPassword(),
        this.database.owner().user(),
        ownerPassword());
  }

  public String ownerPassword() {
    return database.owner().password();
  }

  public String appPassword() {
    return database.application().password();
  }

  /** A new connection to {@code shop} as the application's role, as the shop connects. */
  public Connection connectAsApplication() throws SQLException {
    return database.connect(DATABASE, database.application());
  }

  /** A new connection to {@code database} as its owner, who may read every table of the shop. */
  public Connection connectAsOwner(String database) throws SQLException {
    return this.database.connect(database, this.database.owner());
  }

  /**
   * A new connection to {@code database} as the server's superuser: for what only it may do, such
   * as {@code CREATE EXTENSION pg_stat_statements} and reading every role's statements.
   */
  public Connection connectAsSuperuser(String database) throws SQLException {
    return this.database.connect(database, this.database.server().superuser());
  }

  /** For example {@code 17.7}. */
  public String serverVersion() throws SQLException {
    try (Connection c = connectAsSuperuser("postgres");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The postmaster's process id, or -1 if none runs. */
  public long postmasterPid() {
    return database.server().postmaster().map(ProcessHandle::pid).orElse(-1L);
  }

  /** Stops the server and deletes its folder. Safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      database.server().stop();
    } catch (RuntimeException e) {
      System.err.println("could not stop PostgreSQL cleanly: " + e);
    }
    Folders.delete(folder);
  }
}
