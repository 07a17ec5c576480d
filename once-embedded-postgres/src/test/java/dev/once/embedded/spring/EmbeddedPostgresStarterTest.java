package dev.once.embedded.spring;

import static dev.once.embedded.spring.EmbeddedPostgresSettingsTest.environment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.RecordingLog;
import dev.once.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The starter on plain environments, without a SpringApplication. */
class EmbeddedPostgresStarterTest {

  @TempDir static Path temp;

  private final RecordingLog log = new RecordingLog();

  private static EmbeddedPostgresStarter starter(
      StandardEnvironment environment, RecordingLog log) {
    return new EmbeddedPostgresStarter(environment, log.log());
  }

  @AfterAll
  static void stopServer() {
    TestServers.stop(temp.resolve("pg"));
  }

  @Test
  void withoutADatasourceUrlItStartsTheServerAndPointsSpringDatasourceAtIt() throws Exception {
    Map<String, Object> properties =
        Map.of(
            "once.embedded-postgres.data-dir",
            temp.resolve("pg").toString(),
            "once.embedded-postgres.database",
            "shop");
    StandardEnvironment environment = environment(properties);

    assertThat(starter(environment, log).start()).isTrue();
    String logged = log.lines().toString();

    EmbeddedPostgresServer server = TestServers.find(temp.resolve("pg")).orElseThrow();
    PropertySource<?> added = environment.getPropertySources().iterator().next();
    assertThat(added.getName()).isEqualTo(EmbeddedPostgresStarter.PROPERTY_SOURCE_NAME);
    assertThat(environment.getProperty("spring.datasource.url"))
        .isEqualTo("jdbc:postgresql://localhost:" + server.port() + "/shop");
    // The application connects as its own role; migrations run as the schema owner.
    assertThat(environment.getProperty("spring.datasource.username")).isEqualTo("shop_app");
    assertThat(environment.getProperty("spring.flyway.user")).isEqualTo("shop_owner");
    String appPassword = environment.getProperty("spring.datasource.password");
    String ownerPassword = environment.getProperty("spring.flyway.password");
    assertThat(appPassword)
        .isEqualTo(Files.readString(server.dataDirectory().resolve("shop_app.password")).strip())
        .isNotEqualTo(ownerPassword)
        .isNotEqualTo(server.password());
    assertThat(ownerPassword)
        .isEqualTo(Files.readString(server.dataDirectory().resolve("shop_owner.password")).strip());
    assertThat(logged)
        .as("the log shows the URL, never a password")
        .contains("JDBC URL " + server.jdbcUrl("shop"))
        .doesNotContain(server.password())
        .doesNotContain(appPassword)
        .doesNotContain(ownerPassword);
    try (Connection connection =
            DriverManager.getConnection(
                environment.getProperty("spring.datasource.url"),
                environment.getProperty("spring.datasource.username"),
                environment.getProperty("spring.datasource.password"));
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT current_database(), current_user")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getString(1)).isEqualTo("shop");
      assertThat(rows.getString(2)).isEqualTo("shop_app");
    }

    // A second context in the same JVM gets the same server.
    StandardEnvironment second = environment(properties);
    starter(second, log).start();
    assertThat(second.getProperty("spring.datasource.url"))
        .isEqualTo(environment.getProperty("spring.datasource.url"));
  }

  @Test
  void withADatasourceUrlItAddsNothingAndStartsNothing() {
    Path untouched = temp.resolve("never-created");
    StandardEnvironment environment =
        environment(Map.of("once.embedded-postgres.data-dir", untouched.toString()));
    environment
        .getPropertySources()
        .addLast(
            new SystemEnvironmentPropertySource(
                "env", Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://db:5432/shop")));
    int sourcesBefore = environment.getPropertySources().size();

    assertThat(starter(environment, log).start()).isFalse();

    assertThat(environment.getPropertySources().size()).isEqualTo(sourcesBefore);
    assertThat(environment.getProperty("spring.datasource.url"))
        .isEqualTo("jdbc:postgresql://db:5432/shop");
    assertThat(untouched).doesNotExist();
  }

  @Test
  void disabledItAddsNothingAndStartsNothing() {
    Path untouched = temp.resolve("disabled");
    StandardEnvironment environment =
        environment(
            Map.of(
                "once.embedded-postgres.data-dir",
                untouched.toString(),
                "once.embedded-postgres.enabled",
                "false"));
    int sourcesBefore = environment.getPropertySources().size();

    assertThat(starter(environment, log).start()).isFalse();

    assertThat(environment.getPropertySources().size()).isEqualTo(sourcesBefore);
    assertThat(environment.getProperty("spring.datasource.url")).isNull();
    assertThat(untouched).doesNotExist();
  }
}
