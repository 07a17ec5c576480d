package dev.once.shop.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The least-privilege layout of the embedded database, made from scratch and from a data directory
 * of the earlier layout (the shop's tables in database {@code postgres}, owned by the superuser).
 */
class EmbeddedDatabaseRolesTest {

  private static final Log LOG = LogFactory.getLog(EmbeddedDatabaseRolesTest.class);

  @TempDir Path temp;

  private Path dataDirectory;

  @AfterEach
  void stopServer() {
    TestServers.stop(dataDirectory);
  }

  @Test
  void aDataDirectoryOfTheSingleRoleLayoutIsUpgradedWithItsData() {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);
    // The earlier layout: the shop's first two migrations run by the superuser in "postgres",
    // and Once's schema beside them, with a client and an account holding money.
    DriverManagerDataSource legacy =
        new DriverManagerDataSource(
            server.jdbcUrl(EmbeddedPostgresServer.DATABASE),
            EmbeddedPostgresServer.USERNAME,
            server.password());
    migrate(legacy, "2", "");
    Flyway.configure()
        .dataSource(legacy)
        .schemas("once")
        .createSchemas(true)
        .table("once_schema_history")
        .locations("classpath:dev/once/postgres/migration")
        .target("2")
        .placeholders(Map.of("application_role", ""))
        .load()
        .migrate();
    JdbcClient old = JdbcClient.create(legacy);
    old.sql("INSERT INTO client (id, name, created_at) VALUES ('cl_1', 'old', now())").update();
    old.sql(
            "INSERT INTO account (id, client_id, currency, balance, created_at)"
                + " VALUES ('acc_1', 'cl_1', 'EUR', 12.5, now())")
        .update();
    old.sql(
            "INSERT INTO operation (id, account_id, kind, amount, balance_after, created_at)"
                + " VALUES ('op_1', 'acc_1', 'deposit', 12.5, 12.5, now())")
        .update();

    EmbeddedDatabaseRoles.Passwords passwords = EmbeddedDatabaseRoles.ensure(server, LOG);
    // Idempotent: a second start finds everything in place.
    EmbeddedDatabaseRoles.ensure(server, LOG);

    String shopUrl = server.jdbcUrl(EmbeddedDatabaseRoles.DATABASE);
    DriverManagerDataSource owner =
        new DriverManagerDataSource(shopUrl, EmbeddedDatabaseRoles.OWNER, passwords.owner());
    // The shop's next start: the rest of the migrations, as the owner, granting the application.
    migrate(owner, "latest", EmbeddedDatabaseRoles.APPLICATION);

    JdbcClient app =
        JdbcClient.create(
            new DriverManagerDataSource(
                shopUrl, EmbeddedDatabaseRoles.APPLICATION, passwords.application()));
    assertThat(
            app.sql("SELECT balance::text FROM account WHERE id = 'acc_1'")
                .query(String.class)
                .single())
        .isEqualTo("12.5000");
    assertThat(
            app.sql(
                    """
                    SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class
                    WHERE relnamespace IN ('public'::regnamespace, 'once'::regnamespace)
                    """)
                .query(String.class)
                .list())
        .containsExactly(EmbeddedDatabaseRoles.OWNER);
    assertThat(
            app.sql(
                    "SELECT DISTINCT pg_get_userbyid(proowner) FROM pg_proc"
                        + " WHERE pronamespace IN ('public'::regnamespace, 'once'::regnamespace)")
                .query(String.class)
                .list())
        .containsExactly(EmbeddedDatabaseRoles.OWNER);
    // The grants are exact after every run: a right given by hand is taken away again.
    JdbcClient.create(owner)
        .sql("GRANT UPDATE ON account TO " + EmbeddedDatabaseRoles.APPLICATION)
        .update();
    assertThat(app.sql("UPDATE account SET balance = balance WHERE id = 'acc_1'").update())
        .isEqualTo(1);
    migrate(owner, "latest", EmbeddedDatabaseRoles.APPLICATION);
    assertThat(
            app.sql("SELECT has_table_privilege('account', 'UPDATE')")
                .query(Boolean.class)
                .single())
        .isFalse();

    // A new, empty maintenance database stands where the old one was.
    assertThat(
            old.sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
                .query(Long.class)
                .single())
        .isZero();
  }

  private static void migrate(DriverManagerDataSource dataSource, String target, String app) {
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .target(target)
        .placeholders(Map.of("application_role", app))
        .load()
        .migrate();
  }
}
