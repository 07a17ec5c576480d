package dev.once.shop.database;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * The least-privilege layout of the embedded database (docs/security.md), made by the server's
 * superuser at every start, idempotently:
 *
 * <ul>
 *   <li>role {@value #OWNER}: owns database {@value #DATABASE}, its schemas and tables; the shop's
 *       and Once's migrations run as it ({@code spring.flyway.user});
 *   <li>role {@value #APPLICATION}: the application connects as it ({@code
 *       spring.datasource.username}); it owns nothing, is no superuser, and gets from the
 *       migrations' {@code afterMigrate.sql} callbacks only the rights the shop needs;
 *   <li>database {@value #DATABASE}: only the two roles may connect; nobody may create temporary
 *       tables (they could shadow a table in a function's search path).
 * </ul>
 *
 * <p>Each role's password is random, kept in a file only the OS user can read inside the data
 * directory ({@link PasswordFile}), and set as a SCRAM verifier computed by the driver, so the
 * plain password never appears in a statement or in the server's log.
 */
final class EmbeddedDatabaseRoles {

  /** The database the shop uses. */
  static final String DATABASE = "shop";

  /** The role that owns the schema and runs the migrations. */
  static final String OWNER = "shop_owner";

  /** The role the application connects as. */
  static final String APPLICATION = "shop_app";

  /**
   * User name and password of one role.
   *
   * @param user the role
   * @param password its password
   */
  record Login(String user, String password) {
    @Override
    public String toString() {
      return "Login[" + user + "]"; // never the password
    }
  }

  /**
   * The two logins of the shop's database.
   *
   * @param owner the schema owner, for migrations
   * @param application the application's role
   */
  record Logins(Login owner, Login application) {}

  private EmbeddedDatabaseRoles() {}

  /**
   * Creates what is missing and sets both passwords from their files.
   *
   * @param server the running embedded server
   * @return the logins to configure
   * @throws IllegalStateException if the superuser cannot create them
   */
  static Logins ensure(EmbeddedPostgresServer server) {
    Path dir = server.dataDirectory();
    Login owner = new Login(OWNER, PasswordFile.readOrCreate(dir.resolve(OWNER + ".password")));
    Login application =
        new Login(APPLICATION, PasswordFile.readOrCreate(dir.resolve(APPLICATION + ".password")));
    try (Connection superuser =
        DriverManager.getConnection(
            server.jdbcUrl(EmbeddedPostgresServer.DATABASE),
            server.username(),
            server.password())) {
      ensureRole(superuser, owner);
      ensureRole(superuser, application);
      ensureDatabase(superuser);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Could not set up the roles of the embedded PostgreSQL on "
              + dir
              + " (PostgreSQL log: "
              + server.logFile()
              + "): "
              + e.getMessage(),
          e);
    }
    return new Logins(owner, application);
  }

  private static void ensureRole(Connection superuser, Login login) throws SQLException {
    if (!exists(superuser, "SELECT 1 FROM pg_roles WHERE rolname = ?", login.user())) {
      try (Statement statement = superuser.createStatement()) {
        // The defaults spelled out: no superuser, no role or database creation, no replication,
        // no row-level-security bypass.
        statement.execute(
            "CREATE ROLE "
                + login.user()
                + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS");
      }
    }
    superuser
        .unwrap(PGConnection.class)
        .alterUserPassword(login.user(), login.password().toCharArray(), "scram-sha-256");
  }

  private static void ensureDatabase(Connection superuser) throws SQLException {
    try (Statement statement = superuser.createStatement()) {
      if (!exists(superuser, "SELECT 1 FROM pg_database WHERE datname = ?", DATABASE)) {
        statement.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
      }
      statement.execute("REVOKE ALL ON DATABASE " + DATABASE + " FROM PUBLIC");
      statement.execute("GRANT CONNECT ON DATABASE " + DATABASE + " TO " + APPLICATION);
    }
  }

  private static boolean exists(Connection connection, String query, String name)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, name);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next();
      }
    }
  }
}
