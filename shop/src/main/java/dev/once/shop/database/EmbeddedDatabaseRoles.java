package dev.once.shop.database;

import static dev.once.shop.database.EmbeddedPostgresServer.LOG_FILE;
import static dev.once.shop.database.EmbeddedPostgresServer.USERNAME;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import org.apache.commons.logging.Log;
import org.postgresql.PGConnection;
import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The least-privilege layout of the embedded database (docs/security.md), made by the superuser at
 * every start, idempotently: role {@value #OWNER} owns database {@value #DATABASE} with its schemas
 * and tables, and runs the migrations ({@code spring.flyway.user}); role {@value #APPLICATION}, as
 * which the application connects, owns nothing, is no superuser, and gets only what the migrations'
 * {@code afterMigrate.sql} grant it; only the two may connect to {@value #DATABASE}, and nobody may
 * create temporary tables there (they could shadow a table in a function's search path). Each
 * role's password is random, in an owner-only file of the data directory, and set as a SCRAM
 * verifier computed by the driver: the plain password is in no statement and no log.
 *
 * <p>A data directory of the earlier layout (the shop's tables in database {@code postgres}, owned
 * by the superuser) is upgraded in place: that database becomes {@value #DATABASE}, everything of
 * the shop and of Once in it is handed to {@value #OWNER} ({@code hand-over.sql}), and an empty
 * {@code postgres} is made again. No row is copied or lost.
 */
final class EmbeddedDatabaseRoles {

  /** The shop's database, its owner (migrations), and the application's role. */
  static final String DATABASE = "shop", OWNER = "shop_owner", APPLICATION = "shop_app";

  /** The passwords of the owner and of the application's role; {@link #toString()} hides them. */
  record Passwords(String owner, String application) {
    @Override
    public String toString() {
      return "Passwords[" + OWNER + ", " + APPLICATION + "]";
    }
  }

  private EmbeddedDatabaseRoles() {}

  /** Creates what is missing and sets both passwords from their files. */
  static Passwords ensure(EmbeddedPostgresServer server, Log log) {
    Passwords passwords = new Passwords(password(server, OWNER), password(server, APPLICATION));
    try {
      boolean legacy;
      try (SingleConnectionDataSource postgres = connect(server, EmbeddedPostgresServer.DATABASE)) {
        JdbcTemplate jdbc = new JdbcTemplate(postgres);
        PGConnection connection = postgres.getConnection().unwrap(PGConnection.class);
        for (String role : List.of(OWNER, APPLICATION)) {
          if (jdbc.queryForObject("SELECT to_regrole(?) IS NULL", Boolean.class, role)) {
            jdbc.execute("CREATE ROLE " + role + " LOGIN " + NOTHING_MORE);
          }
          connection.alterUserPassword(role, password(server, role).toCharArray(), "scram-sha-256");
        }
        legacy = jdbc.queryForObject(IS_LEGACY, Boolean.class);
      }
      if (legacy) { // renamed from another database: nobody may be connected to it
        try (SingleConnectionDataSource template1 = connect(server, "template1")) {
          JdbcTemplate jdbc = new JdbcTemplate(template1);
          jdbc.execute("ALTER DATABASE postgres RENAME TO shop");
          jdbc.execute("ALTER DATABASE shop OWNER TO shop_owner");
          jdbc.execute("CREATE DATABASE postgres");
        }
        try (SingleConnectionDataSource shop = connect(server, DATABASE)) {
          ClassPathResource handOver =
              new ClassPathResource("hand-over.sql", EmbeddedDatabaseRoles.class);
          new JdbcTemplate(shop).execute(handOver.getContentAsString(UTF_8));
        }
        log.info(
            "Upgraded the embedded database on %s: the shop's data moved from database 'postgres'"
                    .formatted(server.dataDirectory())
                + " to 'shop', owned by 'shop_owner'; the application now connects as 'shop_app'");
      }
      try (SingleConnectionDataSource postgres = connect(server, EmbeddedPostgresServer.DATABASE)) {
        JdbcTemplate jdbc = new JdbcTemplate(postgres);
        if (jdbc.queryForObject(NO_SHOP, Boolean.class)) {
          jdbc.execute("CREATE DATABASE shop OWNER shop_owner");
        }
        jdbc.execute("REVOKE ALL ON DATABASE shop FROM PUBLIC");
        jdbc.execute("GRANT CONNECT ON DATABASE shop TO shop_app");
      }
    } catch (SQLException | DataAccessException | IOException e) {
      String message = "Could not set up the roles of the embedded PostgreSQL on %s (see %s): %s";
      throw new IllegalStateException(message.formatted(server.dataDirectory(), LOG_FILE, e), e);
    }
    return passwords;
  }

  /** The defaults spelled out. */
  private static final String NOTHING_MORE =
      "NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";

  private static final String NO_SHOP =
      "SELECT NOT EXISTS (SELECT FROM pg_database WHERE datname = 'shop')";

  /** No database "shop" yet, and the shop's tables in "postgres": the single-role layout. */
  private static final String IS_LEGACY =
      NO_SHOP + " AND to_regclass('public.flyway_schema_history') IS NOT NULL";

  private static String password(EmbeddedPostgresServer server, String role) {
    return EmbeddedPostgresServer.password(server.dataDirectory().resolve(role + ".password"));
  }

  private static SingleConnectionDataSource connect(
      EmbeddedPostgresServer server, String database) {
    String url = server.jdbcUrl(database);
    return new SingleConnectionDataSource(url, USERNAME, server.password(), true);
  }
}
