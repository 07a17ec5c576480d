package dev.once.embedded.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Property parsing and validation; no server is started. */
class EmbeddedPostgresSettingsTest {

  @Test
  void defaults() {
    EmbeddedPostgresSettings settings = settings(Map.of());

    assertThat(settings.dataDirectory())
        .isEqualTo(Path.of("data", "postgres").toAbsolutePath().normalize());
    assertThat(settings.port()).isZero();
    assertThat(settings.database()).isEqualTo("app");
    assertThat(settings.enabled()).isTrue();
    assertThat(settings.restartTimeout()).hasSeconds(30);
  }

  @Test
  void environmentVariablesOfBothNamesWork() {
    StandardEnvironment earlier = environment(Map.of());
    earlier
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "env", Map.of("SHOP_EMBEDDED_POSTGRES_PORT", "15434")));
    StandardEnvironment both = environment(Map.of());
    both.getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "env",
                Map.of(
                    "SHOP_EMBEDDED_POSTGRES_PORT",
                    "15434",
                    "ONCE_EMBEDDED_POSTGRES_PORT",
                    "15435")));

    assertThat(EmbeddedPostgresSettings.of(earlier).port()).isEqualTo(15434);
    assertThat(EmbeddedPostgresSettings.of(both).port()).isEqualTo(15435);
  }

  @Test
  void theShopsEarlierNamesStillWorkAndTheNewOnesWin() {
    EmbeddedPostgresSettings earlier =
        settings(
            Map.of(
                "shop.embedded-postgres.data-dir", "target/old",
                "shop.embedded-postgres.port", "15433",
                "shop.embedded-postgres.restart-timeout", "5s"));
    EmbeddedPostgresSettings both =
        settings(
            Map.of(
                "shop.embedded-postgres.data-dir", "target/old",
                "once.embedded-postgres.data-dir", "target/new"));

    assertThat(earlier.dataDirectory()).isEqualTo(Path.of("target/old").toAbsolutePath());
    assertThat(earlier.port()).isEqualTo(15433);
    assertThat(earlier.restartTimeout()).hasSeconds(5);
    assertThat(both.dataDirectory()).isEqualTo(Path.of("target/new").toAbsolutePath());
    assertThat(
            EmbeddedPostgresSettings.wanted(
                environment(Map.of("shop.embedded-postgres.enabled", "false"))))
        .isEmpty();
  }

  @Test
  void readsProperties() {
    EmbeddedPostgresSettings settings =
        settings(
            Map.of(
                "once.embedded-postgres.data-dir", "target/./pg",
                "once.embedded-postgres.port", " 15432 ",
                "once.embedded-postgres.enabled", "TRUE",
                "once.embedded-postgres.database", "shop"));

    assertThat(settings.dataDirectory()).isEqualTo(Path.of("target/pg").toAbsolutePath());
    assertThat(settings.port()).isEqualTo(15432);
    assertThat(settings.database()).isEqualTo("shop");
  }

  @Test
  void aConfiguredUrlOrEnabledFalseMeansNoEmbeddedServer() {
    StandardEnvironment withEnvironmentVariable = environment(Map.of());
    withEnvironmentVariable
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "env", Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://db:5432/shop")));

    assertThat(EmbeddedPostgresSettings.wanted(withEnvironmentVariable)).isEmpty();
    assertThat(
            EmbeddedPostgresSettings.wanted(
                environment(Map.of("spring.datasource.url", "jdbc:postgresql://db/shop"))))
        .isEmpty();
    assertThat(
            EmbeddedPostgresSettings.wanted(
                environment(Map.of("once.embedded-postgres.enabled", "false"))))
        .isEmpty();
    assertThat(EmbeddedPostgresSettings.wanted(environment(Map.of("spring.datasource.url", " "))))
        .as("a blank URL counts as not configured")
        .isPresent();
  }

  @Test
  void aJndiNameOrAnAotBuildMeansNoEmbeddedServer() {
    assertThat(
            EmbeddedPostgresSettings.wanted(
                environment(Map.of("spring.datasource.jndi-name", "java:comp/env/jdbc/shop"))))
        .isEmpty();
    System.setProperty("spring.aot.processing", "true"); // as Spring's AOT processors set it
    try {
      assertThat(EmbeddedPostgresSettings.wanted(environment(Map.of()))).isEmpty();
    } finally {
      System.clearProperty("spring.aot.processing");
    }
  }

  @Test
  void inASpringBootTestTheDefaultDataDirectoryIsUnderTarget() {
    // SpringBootTestContextBootstrapper's marker, in the environment of every @SpringBootTest.
    String marker = "org.springframework.boot.test.context.SpringBootTestContextBootstrapper";

    assertThat(settings(Map.of(marker, "true")).dataDirectory())
        .isEqualTo(Path.of("target", "embedded-postgres").toAbsolutePath());
    assertThat(
            settings(Map.of(marker, "true", "once.embedded-postgres.data-dir", "target/mine"))
                .dataDirectory())
        .isEqualTo(Path.of("target", "mine").toAbsolutePath());
  }

  @Test
  void badValuesNameThePropertyAndTheValue() {
    // What Boot's binder cannot convert: its message names the property, its cause the value.
    // (It reads yes/no/on/off as booleans too.)
    assertUnconvertible("once.embedded-postgres.port", "abc");
    assertUnconvertible("once.embedded-postgres.port", "99999999999");
    assertUnconvertible("once.embedded-postgres.enabled", "maybe");
    // What it converts, but the shop refuses (a port out of range: EmbeddedPostgresServersTest).
    assertInvalid("once.embedded-postgres.data-dir", " ");
    assertInvalid("once.embedded-postgres.data-dir", "bad\0path");
  }

  @Test
  void aDataDirThatIsAFileIsRejected(@TempDir Path temp) throws Exception {
    Path file = Files.writeString(temp.resolve("file"), "x");

    assertInvalid("once.embedded-postgres.data-dir", file.toString());
  }

  private static void assertUnconvertible(String property, String value) {
    assertThatThrownBy(() -> settings(Map.of(property, value)))
        .isInstanceOf(BindException.class)
        .hasMessageContaining("'" + property + "'")
        .rootCause()
        .hasMessageContaining(value);
  }

  private static void assertInvalid(String property, String value) {
    assertThatThrownBy(() -> settings(Map.of(property, value)).dataDirectory())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid value '" + value.strip())
        .hasMessageContaining("for property '" + property + "'");
  }

  private static EmbeddedPostgresSettings settings(Map<String, Object> properties) {
    return EmbeddedPostgresSettings.wanted(environment(properties)).orElseThrow();
  }

  /** Only the given properties: the real environment variables must not leak in. */
  static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return environment;
  }
}
