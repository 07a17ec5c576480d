package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Once's tables belong to the schema owner that the application's Flyway migrates as, and the
 * application's role gets only what Once needs: rows, never the tables. The application's own
 * migrations, run by Boot's Flyway, get the application's role in {@code ${application_role}} too.
 */
class OnceSchemaMigrationTest {
  private static final String DATABASE = "once_roles";
  private static final String OWNER = "once_test_owner";
  private static final String APPLICATION = "once_test_app";
  private static final String PASSWORD = "test-only-password";

  @BeforeAll
  static void twoRolesAndADatabase() throws SQLException {
    try (Connection superuser = DriverManager.getConnection(TestDatabase.jdbcUrl());
        Statement st = superuser.createStatement()) {
      for (String role : List.of(OWNER, APPLICATION)) {
        st.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + PASSWORD + "'");
      }
      st.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
      st.execute("REVOKE ALL ON DATABASE " + DATABASE + " FROM PUBLIC");
      st.execute("GRANT CONNECT ON DATABASE " + DATABASE + " TO " + APPLICATION);
    }
  }

  private static String url() {
    // Without the user and password parameters that the test server's URL carries.
    String server = TestDatabase.jdbcUrl();
    return server.substring(0, server.indexOf("/postgres?")) + "/" + DATABASE;
  }

  @Test
  void migratesAsTheApplicationsFlywayOwnerAndGrantsTheApplicationOnlyRows() {
    application()
        // As Boot builds it from spring.flyway.user/password: the owner's data source.
        .withBean(
            Flyway.class,
            () ->
                Flyway.configure()
                    .dataSource(new DriverManagerDataSource(url(), OWNER, PASSWORD))
                    .load())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JdbcClient app = login(APPLICATION);
              assertThat(
                      app.sql(
                              """
                              SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class
                              WHERE relnamespace = 'once'::regnamespace
                              """)
                          .query(String.class)
                          .list())
                  .containsExactly(OWNER);
              // Rows: everything Once's stores do.
              app.sql(
                      """
                      INSERT INTO once.idempotency_key
                          (client_id, idem_key, fingerprint, state, status_code, body, created_at,
                           completed_at, expires_at)
                      VALUES ('c', 'k', decode(repeat('00', 32), 'hex'), 'completed', 201, '',
                              now(), now(), now())
                      """)
                  .update();
              assertThat(app.sql("UPDATE once.idempotency_key SET status_code = 200").update())
                  .isEqualTo(1);
              assertThat(app.sql("DELETE FROM once.idempotency_key").update()).isEqualTo(1);
              assertThat(app.sql("SELECT count(*) FROM once.outbox").query(Long.class).single())
                  .isZero();
              // Never the tables, their triggers, or the migration history.
              for (String forbidden :
                  List.of(
                      "ALTER TABLE once.idempotency_key DISABLE TRIGGER ALL",
                      "DROP TABLE once.outbox",
                      "TRUNCATE once.idempotency_key",
                      "DELETE FROM once.once_schema_history",
                      "CREATE TABLE once.forged (id int)")) {
                SQLException e =
                    catchThrowableOfType(
                        SQLException.class,
                        () -> {
                          try (Connection c =
                                  DriverManager.getConnection(url(), APPLICATION, PASSWORD);
                              Statement st = c.createStatement()) {
                            st.execute(forbidden);
                          }
                        });
                assertThat((Throwable) e).as(forbidden).isNotNull();
                assertThat(e.getSQLState()).as(forbidden).isEqualTo("42501");
              }
            });
  }

  @Test
  void bootsFlywayGivesTheApplicationsOwnMigrationsTheApplicationRole() {
    bootFlyway("user_a")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JdbcClient app = login(APPLICATION);
              // Granted: the application's role reads what its migration made.
              assertThat(
                      app.sql("SELECT granted_to FROM user_a.user_note").query(String.class).list())
                  .containsExactly(APPLICATION);
              assertThat(
                      app.sql(
                              "SELECT pg_get_userbyid(relowner) FROM pg_class"
                                  + " WHERE oid = 'user_a.user_note'::regclass")
                          .query(String.class)
                          .single())
                  .isEqualTo(OWNER);
            });
  }

  @Test
  void aPlaceholderValueTheApplicationSetIsKept() {
    bootFlyway("user_b")
        .withPropertyValues("spring.flyway.placeholders.application_role=" + OWNER)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JdbcClient owner = login(OWNER);
              assertThat(
                      owner
                          .sql("SELECT granted_to FROM user_b.user_note")
                          .query(String.class)
                          .list())
                  .containsExactly(OWNER);
            });
  }

  /** Boot's DataSource as the application, Boot's Flyway as the owner, into a schema of its own. */
  private static WebApplicationContextRunner bootFlyway(String schema) {
    return application(FlywayAutoConfiguration.class)
        .withPropertyValues(
            "spring.flyway.user=" + OWNER,
            "spring.flyway.password=" + PASSWORD,
            "spring.flyway.schemas=" + schema,
            "spring.flyway.locations=classpath:dev/once/spring/user-migration");
  }

  /** Boot's DataSource as the application's role, Once, and {@code more} auto-configurations. */
  private static WebApplicationContextRunner application(Class<?>... more) {
    return new WebApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class))
        .withConfiguration(AutoConfigurations.of(more))
        .withPropertyValues(
            "spring.datasource.url=" + url(),
            "spring.datasource.username=" + APPLICATION,
            "spring.datasource.password=" + PASSWORD);
  }

  private static JdbcClient login(String role) {
    return JdbcClient.create(new DriverManagerDataSource(url(), role, PASSWORD));
  }
}
