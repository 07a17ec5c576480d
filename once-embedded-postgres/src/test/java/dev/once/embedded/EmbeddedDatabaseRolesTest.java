package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The least-privilege layout of an embedded database, made from scratch and from a data directory
 * of the shop's earlier layout (its tables in database {@code postgres}, owned by the superuser).
 */
class EmbeddedDatabaseRolesTest {

  @TempDir Path temp;

  private Path dataDirectory;

  private final RecordingLog log = new RecordingLog();

  @AfterEach
  void stopServer() {
    TestServers.stop(dataDirectory);
  }

  @Test
  void aNewDatabaseHasItsOwnerAndAnApplicationRoleThatOwnsNothing() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);

    EmbeddedDatabase database = server.database("app", log.log());
    // Idempotent: a second start finds everything in place, with the same passwords.
    EmbeddedDatabase again = server.database("app", log.log());

    assertThat(again).isEqualTo(database);
    assertThat(database.jdbcUrl()).isEqualTo(server.jdbcUrl("app"));
    assertThat(database.owner().user()).isEqualTo("app_owner");
    assertThat(database.application().user()).isEqualTo("app_app");
    assertThat(database.owner().password())
        .isEqualTo(Files.readString(dataDirectory.resolve("app_owner.password")).strip())
        .isNotEqualTo(database.application().password())
        .isNotEqualTo(server.password());
    assertThat(database.application().password())
        .isEqualTo(Files.readString(dataDirectory.resolve("app_app.password")).strip());
    assertThat(database.toString()).doesNotContain(database.owner().password());
    try (Connection app = database.connect("app", database.application())) {
      assertThat(query(app, "SELECT current_user")).containsExactly("app_app");
      assertThat(
              query(app, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'app'"))
          .containsExactly("app_owner");
      assertThat(
              query(
                  app,
                  "SELECT rolsuper OR rolcreatedb OR rolcreaterole FROM pg_roles"
                      + " WHERE rolname IN ('app_owner', 'app_app')"))
          .containsExactly("f", "f");
      assertThat(query(app, "SELECT has_database_privilege('app', 'TEMP')")).containsExactly("f");
    }
    assertThatThrownBy(() -> database.connect("app", new Login("postgres", "wrong")).close())
        .isInstanceOf(SQLException.class);

    String other = database.createDatabase("app_more");
    assertThat(other).isEqualTo(server.jdbcUrl("app_more"));
    try (Connection app = database.connect("app_more", database.application())) {
      assertThat(
              query(
                  app,
                  "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'app_more'"))
          .containsExactly("app_owner");
    }
    assertThatThrownBy(() -> server.database("Robert'); DROP", log.log()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(EmbeddedPostgresProperties.DATABASE);
    assertThatThrownBy(() -> server.database("postgres", log.log()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDataDirectoryOfTheSingleRoleLayoutIsUpgradedWithItsData() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);
    // The earlier layout: the tables of the shop (a Flyway history among them) and of Once made by
    // the superuser in "postgres", with rows.
    try (Connection legacy = superuser(server, EmbeddedPostgresServer.DATABASE);
        Statement s = legacy.createStatement()) {
      s.execute("CREATE TABLE flyway_schema_history (installed_rank int PRIMARY KEY)");
      s.execute("CREATE TABLE account (id text PRIMARY KEY, balance numeric NOT NULL)");
      s.execute("CREATE TABLE operation (id bigserial PRIMARY KEY, amount numeric NOT NULL)");
      s.execute("CREATE VIEW balances AS SELECT id, balance FROM account");
      s.execute("CREATE FUNCTION nothing() RETURNS int LANGUAGE sql AS 'SELECT 1'");
      s.execute("CREATE SCHEMA once");
      s.execute("CREATE TABLE once.idempotency_key (id text PRIMARY KEY)");
      s.execute("CREATE SEQUENCE once.free_standing");
      s.execute("INSERT INTO account VALUES ('acc_1', 12.5)");
      s.execute("INSERT INTO operation (amount) VALUES (12.5)");
    }

    EmbeddedDatabase shop = server.database("shop", log.log());
    server.database("shop", log.log()); // a second start finds everything in place

    assertThat(log.lines())
        .filteredOn(line -> line.contains("Upgraded the embedded database"))
        .hasSize(1);
    try (Connection owner = shop.connect("shop", shop.owner())) {
      assertThat(query(owner, "SELECT balance::text FROM account")).containsExactly("12.5");
      assertThat(
              query(
                  owner,
                  """
                  SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class
                  WHERE relnamespace IN ('public'::regnamespace, 'once'::regnamespace)
                  """))
          .containsExactly("shop_owner");
      assertThat(
              query(
                  owner,
                  "SELECT DISTINCT pg_get_userbyid(proowner) FROM pg_proc"
                      + " WHERE pronamespace IN ('public'::regnamespace, 'once'::regnamespace)"))
          .containsExactly("shop_owner");
      assertThat(
              query(
                  owner,
                  "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'once'"))
          .containsExactly("shop_owner");
      owner.createStatement().execute("INSERT INTO operation (amount) VALUES (1)"); // its sequence
    }
    try (Connection app = shop.connect("shop", shop.application())) {
      assertThat(query(app, "SELECT has_table_privilege('account', 'SELECT')"))
          .as("the application gets only what the migrations grant it")
          .containsExactly("f");
    }
    // A new, empty maintenance database stands where the old one was.
    try (Connection postgres = superuser(server, EmbeddedPostgresServer.DATABASE)) {
      assertThat(query(postgres, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"))
          .containsExactly("0");
    }
  }

  private static Connection superuser(EmbeddedPostgresServer server, String database)
      throws SQLException {
    return java.sql.DriverManager.getConnection(
        server.jdbcUrl(database), server.superuser().user(), server.superuser().password());
  }

  private static List<String> query(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      return values;
    }
  }
}
