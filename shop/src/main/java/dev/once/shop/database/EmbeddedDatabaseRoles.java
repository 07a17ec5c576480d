package dev.once.shop.database;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.commons.logging.Log;
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
 * <p>A data directory from before this split (the shop's tables in database {@code postgres}, owned
 * by the superuser) is upgraded in place: that database becomes {@value #DATABASE}, everything of
 * the shop and of Once in it is handed to {@value #OWNER}, and an empty {@code postgres} database
 * is made again for maintenance. No row is copied or lost.
 *
 * <p>Each role's password is random, kept in a file only the OS user can read inside the data
 * directory ({@link EmbeddedPostgresServer#password}), and set as a SCRAM verifier computed by the
 * driver, so the plain password never appears in a statement or in the server's log.
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
   * @param log where to report an upgrade of an earlier layout
   * @return the logins to configure
   * @throws IllegalStateException if the superuser cannot create them
   */
  static Logins ensure(EmbeddedPostgresServer server, Log log) {
    Path dir = server.dataDirectory();
    Login owner =
        new Login(OWNER, EmbeddedPostgresServer.password(dir.resolve(OWNER + ".password")));
    Login application =
        new Login(
            APPLICATION, EmbeddedPostgresServer.password(dir.resolve(APPLICATION + ".password")));
    try {
      boolean legacy;
      try (Connection superuser = connect(server, EmbeddedPostgresServer.DATABASE)) {
        ensureRole(superuser, owner);
        ensureRole(superuser, application);
        legacy =
            !exists(superuser, "SELECT 1 FROM pg_database WHERE datname = ?", DATABASE)
                && holdsTheShop(superuser);
      }
      if (legacy) {
        // Closed first: a database cannot be renamed while anyone is connected to it.
        adoptLegacyDatabase(server);
        log.info(
            "Upgraded the embedded database on "
                + dir
                + ": the shop's data moved from database '"
                + EmbeddedPostgresServer.DATABASE
                + "' to '"
                + DATABASE
                + "', owned by role '"
                + OWNER
                + "'; the application now connects as '"
                + APPLICATION
                + "'");
      }
      try (Connection superuser = connect(server, EmbeddedPostgresServer.DATABASE)) {
        ensureDatabase(superuser);
      }
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

  /** Whether the maintenance database holds the shop's tables: the layout before the split. */
  private static boolean holdsTheShop(Connection superuser) throws SQLException {
    return exists(
        superuser,
        "SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = ?",
        "flyway_schema_history");
  }

  /**
   * Renames the legacy database to {@value #DATABASE} (from another database: the one connected to
   * cannot be renamed), hands its objects to the owner, and makes a new empty {@code postgres}.
   */
  private static void adoptLegacyDatabase(EmbeddedPostgresServer server) throws SQLException {
    try (Connection template = connect(server, "template1");
        Statement statement = template.createStatement()) {
      statement.execute(
          "ALTER DATABASE " + EmbeddedPostgresServer.DATABASE + " RENAME TO " + DATABASE);
      statement.execute("ALTER DATABASE " + DATABASE + " OWNER TO " + OWNER);
      statement.execute("CREATE DATABASE " + EmbeddedPostgresServer.DATABASE);
    }
    try (Connection shop = connect(server, DATABASE);
        Statement statement = shop.createStatement()) {
      statement.execute(HAND_OVER.replace("${owner}", OWNER));
    }
  }

  /** Every table, sequence, view and function of schemas public and once, and schema once. */
  private static final String HAND_OVER =
      """
      DO $$
      DECLARE
          object record;
      BEGIN
          FOR object IN
              SELECT c.oid::regclass AS name FROM pg_class c
              WHERE c.relnamespace IN ('public'::regnamespace, to_regnamespace('once'))
                AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                AND c.relowner <> '${owner}'::regrole
          LOOP
              EXECUTE format('ALTER TABLE %s OWNER TO ${owner}', object.name);
          END LOOP;
          FOR object IN
              SELECT c.oid::regclass AS name FROM pg_class c
              WHERE c.relnamespace IN ('public'::regnamespace, to_regnamespace('once'))
                AND c.relkind = 'S' AND c.relowner <> '${owner}'::regrole
                AND NOT EXISTS (SELECT 1 FROM pg_depend d
                                WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
          LOOP
              EXECUTE format('ALTER SEQUENCE %s OWNER TO ${owner}', object.name);
          END LOOP;
          FOR object IN
              SELECT p.oid::regprocedure AS name FROM pg_proc p
              WHERE p.pronamespace IN ('public'::regnamespace, to_regnamespace('once'))
          LOOP
              EXECUTE format('ALTER ROUTINE %s OWNER TO ${owner}', object.name);
          END LOOP;
          IF to_regnamespace('once') IS NOT NULL THEN
              ALTER SCHEMA once OWNER TO ${owner};
          END IF;
      END
      $$
      """;

  private static Connection connect(EmbeddedPostgresServer server, String database)
      throws SQLException {
    return DriverManager.getConnection(
        server.jdbcUrl(database), server.username(), server.password());
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
