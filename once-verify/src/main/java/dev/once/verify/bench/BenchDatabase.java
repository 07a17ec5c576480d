package dev.once.verify.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One embedded PostgreSQL for the whole run, in a fresh temporary folder, with durable commits
 * ({@code fsync} and {@code synchronous_commit} on; zonky turns the latter off by default) and
 * PostgreSQL's defaults otherwise. It holds database {@code shop} with the two roles of
 * docs/security.md "An external PostgreSQL": {@code shop_owner} (owner, runs the migrations) and
 * {@code shop_app} (the application), and, for the orders scenario, database {@code shop_orders} of
 * the same owner, so the relay that scenario needs never sees the payments' outbox. It listens on
 * localhost only; zonky's cluster trusts local connections, acceptable for a throw-away benchmark
 * database.
 */
public final class BenchDatabase implements AutoCloseable {
  /** The database the shop runs on. */
  public static final String DATABASE = "shop";

  static final String ORDERS_DATABASE = "shop_orders";
  static final String OWNER = "shop_owner";
  static final String APPLICATION = "shop_app";

  private final Path folder;
  private final EmbeddedPostgres postgres;
  private final String ownerPassword = secret();
  private final String appPassword = secret();
  private boolean closed;

  private BenchDatabase(Path folder, EmbeddedPostgres postgres) {
    this.folder = folder;
    this.postgres = postgres;
  }

  /** Starts the server and creates the roles and the database. */
  public static BenchDatabase start() throws IOException, SQLException {
    Path folder = Files.createTempDirectory("once-verify-");
    EmbeddedPostgres postgres =
        EmbeddedPostgres.builder()
            .setOverrideWorkingDirectory(folder.resolve("work").toFile())
            .setDataDirectory(folder.resolve("data"))
            .setCleanDataDirectory(false) // close() deletes the whole folder
            .setServerConfig("listen_addresses", "localhost")
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .start();
    BenchDatabase db = new BenchDatabase(folder, postgres);
    try {
      try (Connection c = postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE ROLE " + OWNER + " LOGIN PASSWORD '" + db.ownerPassword + "'");
        s.execute("CREATE ROLE " + APPLICATION + " LOGIN PASSWORD '" + db.appPassword + "'");
      }
      db.createDatabase(DATABASE);
    } catch (SQLException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  /**
   * Creates database {@code name}, owned by {@code shop_owner}, that only the two roles may connect
   * to.
   */
  public void createDatabase(String name) throws SQLException {
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name + " OWNER " + OWNER);
      s.execute("REVOKE ALL ON DATABASE " + name + " FROM PUBLIC");
      s.execute("GRANT CONNECT ON DATABASE " + name + " TO " + APPLICATION);
    }
  }

  /** JDBC URL of database {@code shop}. */
  public String jdbcUrl() {
    return jdbcUrl(DATABASE);
  }

  /** JDBC URL of database {@code database}. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + database;
  }

  /**
   * How a shop logs in to {@code database}: as {@code shop_app}, migrating as {@code shop_owner}.
   */
  public ShopLogin login(String database) {
    return new ShopLogin(jdbcUrl(database), APPLICATION, appPassword, OWNER, ownerPassword);
  }

  public String ownerPassword() {
    return ownerPassword;
  }

  public String appPassword() {
    return appPassword;
  }

  /** A new connection to {@code shop} as the application's role, as the shop connects. */
  public Connection connectAsApplication() throws SQLException {
    return DriverManager.getConnection(
        jdbcUrl() + "?user=" + APPLICATION + "&password=" + appPassword);
  }

  /** A new connection to {@code database} as its owner, who may read every table of the shop. */
  public Connection connectAsOwner(String database) throws SQLException {
    return DriverManager.getConnection(
        jdbcUrl(database) + "?user=" + OWNER + "&password=" + ownerPassword);
  }

  /** For example {@code 17.7}. */
  public String serverVersion() throws SQLException {
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The postmaster's process id, from {@code postmaster.pid}, or -1 if unreadable. */
  public long postmasterPid() {
    try (Stream<String> lines = Files.lines(folder.resolve("data").resolve("postmaster.pid"))) {
      return lines.findFirst().map(String::trim).map(Long::parseLong).orElse(-1L);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Stops the server and deletes its folder. Safe to call more than once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      postgres.close();
    } catch (IOException e) {
      System.err.println("could not stop PostgreSQL cleanly: " + e);
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + folder + ": " + e);
    }
  }

  private static String secret() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
