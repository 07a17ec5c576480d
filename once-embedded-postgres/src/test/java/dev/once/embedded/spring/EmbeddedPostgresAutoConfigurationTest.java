package dev.once.embedded.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.RecordingLog;
import dev.once.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Whole applications with Boot's DataSource and Flyway: the embedded server starts only when
 * nothing else supplies the database, and then the application connects as its role and Flyway
 * migrates as the owner; a supplied database (connection details, a DataSource bean) is migrated
 * with its own login, and an AOT build starts nothing. The supplied database is a second embedded
 * server of the test's own.
 */
class EmbeddedPostgresAutoConfigurationTest {

  @TempDir static Path temp;

  private static EmbeddedDatabase supplied;

  @BeforeAll
  static void anotherDatabase() {
    EmbeddedPostgresServer server = TestServers.obtain(temp.resolve("supplied"), false);
    supplied = server.database("supplied", new RecordingLog().log());
  }

  @AfterAll
  static void stopServers() {
    TestServers.stop(temp.resolve("supplied"));
    TestServers.stop(temp.resolve("embedded"));
  }

  @Test
  void withNothingSuppliedTheEmbeddedServerStartsAndFlywayMigratesAsItsOwner() throws Exception {
    Path dataDir = temp.resolve("embedded");
    try (ConfigurableApplicationContext context = run(Plain.class, dataDir)) {
      assertThat(TestServers.find(dataDir)).isPresent();
      DataSource dataSource = context.getBean(DataSource.class);
      assertThat(query(dataSource, "SELECT current_user")).isEqualTo("app_app");
      assertThat(
              query(
                  dataSource,
                  "SELECT pg_get_userbyid(relowner) FROM pg_class"
                      + " WHERE relname = 'flyway_schema_history'"))
          .isEqualTo("app_owner");
      assertThat(context.getBean(EmbeddedPostgresSupervisor.class).isRunning()).isTrue();
    }
  }

  @Test
  void connectionDetailsOfAnotherDatabaseStartNothingAndFlywayMigratesWithTheirLogin()
      throws Exception {
    assertSuppliedDatabaseUsed(WithConnectionDetails.class);
  }

  @Test
  void aDataSourceBeanStartsNothingAndFlywayMigratesThroughIt() throws Exception {
    assertSuppliedDatabaseUsed(WithDataSource.class);
  }

  @Test
  void anAotBuildStartsNothingButKeepsTheDecisionForRunTime() throws Exception {
    Path dataDir = temp.resolve("not-in-an-aot-build");
    Path generated = temp.resolve("aot");
    AbstractAotProcessor.Settings settings =
        AbstractAotProcessor.Settings.builder()
            .sourceOutput(generated.resolve("sources"))
            .resourceOutput(generated.resolve("resources"))
            .classOutput(generated.resolve("classes"))
            .groupId("dev.once")
            .artifactId("aot-test")
            .build();

    // As spring-boot-maven-plugin's process-aot does: it sets spring.aot.processing=true.
    new SpringApplicationAotProcessor(
            AotApplication.class, settings, new String[] {dataDirArgument(dataDir)})
        .process();

    assertThat(dataDir).doesNotExist();
    assertThat(System.getProperty("spring.aot.processing")).isNull();
    try (Stream<Path> files = Files.walk(generated.resolve("sources"))) {
      // The starter's bean is generated: at run time it decides from that environment.
      assertThat(
              files
                  .filter(Files::isRegularFile)
                  .map(EmbeddedPostgresAutoConfigurationTest::read)
                  .anyMatch(source -> source.contains("EmbeddedPostgresStarter")))
          .isTrue();
    }
  }

  /** No server, no starter, and Flyway migrated the supplied database as the supplied login. */
  private static void assertSuppliedDatabaseUsed(Class<?> application) throws SQLException {
    Path dataDir = temp.resolve("not-" + application.getSimpleName());
    try (ConfigurableApplicationContext context = run(application, dataDir)) {
      assertThat(dataDir).doesNotExist();
      assertThat(context.getBeansOfType(EmbeddedPostgresStarter.class)).isEmpty();
      DataSource dataSource = context.getBean(DataSource.class);
      String how = application.getSimpleName();
      assertThat(query(dataSource, "SELECT current_database()")).as(how).isEqualTo("supplied");
      assertThat(query(dataSource, "SELECT current_user")).as(how).isEqualTo("supplied_owner");
      assertThat(
              query(
                  dataSource,
                  "SELECT pg_get_userbyid(relowner) FROM pg_class" + " WHERE relname = 'note'"))
          .as(how)
          .isEqualTo("supplied_owner");
      try (Connection c = dataSource.getConnection();
          Statement st = c.createStatement()) {
        // Each test migrates afresh.
        st.execute("DROP TABLE note, flyway_schema_history");
      }
    }
  }

  private static ConfigurableApplicationContext run(Class<?> application, Path dataDir) {
    return new SpringApplicationBuilder(application)
        .web(WebApplicationType.NONE)
        .run(dataDirArgument(dataDir), "--spring.flyway.locations=" + MIGRATIONS);
  }

  private static final String MIGRATIONS = "classpath:dev/once/embedded/spring/migration";

  private static String dataDirArgument(Path dataDir) {
    return "--once.embedded-postgres.data-dir=" + dataDir;
  }

  private static String query(DataSource dataSource, String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Nothing but auto-configuration. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Plain {}

  /** What Testcontainers' {@code @ServiceConnection} or Docker Compose support register. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class WithConnectionDetails {
    @Bean
    JdbcConnectionDetails suppliedDatabase() {
      return new JdbcConnectionDetails() {
        @Override
        public String getUsername() {
          return supplied.owner().user();
        }

        @Override
        public String getPassword() {
          return supplied.owner().password();
        }

        @Override
        public String getJdbcUrl() {
          return supplied.jdbcUrl();
        }
      };
    }
  }

  /** The application's own DataSource. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class WithDataSource {
    @Bean
    DataSource suppliedDataSource() {
      return new DriverManagerDataSource(
          supplied.jdbcUrl(), supplied.owner().user(), supplied.owner().password());
    }
  }

  /** An application as spring-boot-maven-plugin's process-aot runs it: through its main. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  public static class AotApplication {
    public static void main(String[] args) {
      SpringApplication.run(AotApplication.class, args);
    }
  }
}
