package dev.once.embedded;

import static dev.once.embedded.EmbeddedPostgresServer.LOG_FILE;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.commons.logging.Log;
import org.postgresql.PGConnection;

/**
 * The least-privilege layout of an embedded database (docs/security.md), made by the superuser at
 * every start, idempotently: role {@code <name>_owner} owns database {@code <name>} with its
 * schemas and tables, and runs the migrations ({@code spring.flyway.user}); role {@code
 * <name>_app}, as which the application connects, owns nothing, is no superuser, and gets only what
 * the migrations grant it; only the two may connect to the database, and nobody may create
 * temporary tables there (they could shadow a table in a function's search path). Each role's
 * password is random, in an owner-only file {@code <role>.password} of the data directory, and set
 * as a SCRAM verifier computed by the driver: the plain password is in no statement and no log.
 *
 * <p>A data directory of the shop's earlier layout (its tables in database {@code postgres}, owned
 * by the superuser) is upgraded in place: that database becomes {@code <name>}, everything in its
 * schemas {@code public} and {@code once} is handed to the owner ({@code hand-over.sql}), and an
 * empty {@code postgres} is made again. No row is copied or lost.
 */
final class EmbeddedDatabaseRoles {

  /** A name PostgreSQL takes unquoted, with room for {@code _owner}. */
  private static final String NAME = "[a-z_][a-z0-9_]{0,56}";

  private EmbeddedDatabaseRoles() {}

  /** Creates what is missing and sets both passwords from their files. */
  static EmbeddedDatabase ensure(EmbeddedPostgresServer server, String name, Log log) {
    if (name == null || !name.matches(NAME) || name.equals(EmbeddedPostgresServer.DATABASE)) {
      throw new IllegalArgumentException(
          EmbeddedPostgresProperties.invalidValue(
              EmbeddedPostgresProperties.DATABASE,
              name,
              "expected lower-case letters, digits and _ (at most 57, not first a digit), and not"
                  + " 'postgres'"));
    }
    String owner = name + "_owner", application = name + "_app";
    EmbeddedDatabase database =
        new EmbeddedDatabase(
            server,
            name,
            new Login(owner, password(server, owner)),
            new Login(application, password(server, application)));
    try {
      boolean legacy;
      try (Connection postgres = connect(server, EmbeddedPostgresServer.DATABASE);
          Statement statement = postgres.createStatement()) {
        PGConnection connection = postgres.unwrap(PGConnection.class);
        for (Login role : List.of(database.owner(), database.application())) {
          if (!exists(postgres, "SELECT to_regrole(?) IS NOT NULL", role.user())) {
            statement.execute("CREATE ROLE " + role.user() + " LOGIN " + NOTHING_MORE);
          }
          connection.alterUserPassword(role.user(), role.password().toCharArray(), "scram-sha-256");
        }
        legacy =
            !exists(postgres, HAS_DATABASE, name)
                && exists(
                    postgres, "SELECT to_regclass(?) IS NOT NULL", "public.flyway_schema_history");
      }
      if (legacy) { // renamed from another database: nobody may be connected to it
        try (Connection template1 = connect(server, "template1");
            Statement statement = template1.createStatement()) {
          statement.execute("ALTER DATABASE postgres RENAME TO " + name);
          statement.execute("ALTER DATABASE " + name + " OWNER TO " + owner);
          statement.execute("CREATE DATABASE postgres");
        }
        try (Connection upgraded = connect(server, name);
            Statement statement = upgraded.createStatement();
            InputStream handOver =
                EmbeddedDatabaseRoles.class.getResourceAsStream("hand-over.sql")) {
          statement.execute(new String(handOver.readAllBytes(), UTF_8).replace("${owner}", owner));
        }
        log.info(
            ("Upgraded the embedded database on %s: the data moved from database 'postgres' to"
                    + " '%s', owned by '%s'; the application now connects as '%s'")
                .formatted(server.dataDirectory(), name, owner, application));
      }
      create(database, name);
    } catch (SQLException | IOException e) {
      String message = "Could not set up the roles of the embedded PostgreSQL on %s (see %s): %s";
      throw new IllegalStateException(message.formatted(server.dataDirectory(), LOG_FILE, e), e);
    }
    return database;
  }

  /** Database {@code name}, owned by the owner, made if missing; only the two roles may connect. */
  static void create(EmbeddedDatabase database, String name) throws SQLException {
    if (!name.matches(NAME) || name.equals(EmbeddedPostgresServer.DATABASE)) {
      throw new IllegalArgumentException("Not an acceptable database name: '" + name + "'");
    }
    try (Connection postgres = connect(database.server(), EmbeddedPostgresServer.DATABASE);
        Statement statement = postgres.createStatement()) {
      if (!exists(postgres, HAS_DATABASE, name)) {
        statement.execute("CREATE DATABASE " + name + " OWNER " + database.owner().user());
      }
      statement.execute("REVOKE ALL ON DATABASE " + name + " FROM PUBLIC");
      statement.execute(
          "GRANT CONNECT ON DATABASE " + name + " TO " + database.application().user());
    }
  }

  /** The defaults spelled out. */
  private static final String NOTHING_MORE =
      "NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";

  private static final String HAS_DATABASE =
      "SELECT EXISTS (SELECT FROM pg_database WHERE datname = ?)";

  private static boolean exists(Connection connection, String query, String parameter)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, parameter);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getBoolean(1);
      }
    }
  }

  private static String password(EmbeddedPostgresServer server, String role) {
    return EmbeddedPostgresServer.password(server.dataDirectory().resolve(role + ".password"));
  }

  private static Connection connect(EmbeddedPostgresServer server, String database)
      throws SQLException {
    Login superuser = server.superuser();
    return DriverManager.getConnection(
        server.jdbcUrl(database), superuser.user(), superuser.password());
  }
}
