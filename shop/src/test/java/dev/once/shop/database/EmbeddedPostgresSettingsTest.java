package dev.once.shop.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Property parsing and validation; no server is started. */
class EmbeddedPostgresSettingsTest {

  @Test
  void defaults() {
    EmbeddedPostgresSettings settings = EmbeddedPostgresSettings.from(environment(Map.of()));

    assertThat(settings.dataDirectory())
        .isEqualTo(Path.of("data", "postgres").toAbsolutePath().normalize());
    assertThat(settings.port()).isZero();
    assertThat(settings.clean()).isFalse();
    assertThat(EmbeddedPostgresSettings.isWanted(environment(Map.of()))).isTrue();
  }

  @Test
  void readsProperties() {
    EmbeddedPostgresSettings settings =
        EmbeddedPostgresSettings.from(
            environment(
                Map.of(
                    "shop.embedded-postgres.data-dir", "target/./pg",
                    "shop.embedded-postgres.port", " 15432 ",
                    "shop.embedded-postgres.clean", "TRUE")));

    assertThat(settings.dataDirectory()).isEqualTo(Path.of("target/pg").toAbsolutePath());
    assertThat(settings.port()).isEqualTo(15432);
    assertThat(settings.clean()).isTrue();
  }

  @Test
  void aConfiguredUrlOrEnabledFalseMeansNoEmbeddedServer() {
    StandardEnvironment withEnvironmentVariable = environment(Map.of());
    withEnvironmentVariable
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "env", Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://db:5432/shop")));

    assertThat(EmbeddedPostgresSettings.isWanted(withEnvironmentVariable)).isFalse();
    assertThat(
            EmbeddedPostgresSettings.isWanted(
                environment(Map.of("spring.datasource.url", "jdbc:postgresql://db/shop"))))
        .isFalse();
    assertThat(
            EmbeddedPostgresSettings.isWanted(
                environment(Map.of("shop.embedded-postgres.enabled", "false"))))
        .isFalse();
    assertThat(EmbeddedPostgresSettings.isWanted(environment(Map.of("spring.datasource.url", " "))))
        .as("a blank URL counts as not configured")
        .isTrue();
  }

  @Test
  void badValuesNameThePropertyAndTheValue() {
    assertInvalid("shop.embedded-postgres.port", "abc");
    assertInvalid("shop.embedded-postgres.port", "-1");
    assertInvalid("shop.embedded-postgres.port", "65536");
    assertInvalid("shop.embedded-postgres.clean", "yes");
    assertInvalid("shop.embedded-postgres.data-dir", " ");
    assertThatThrownBy(
            () ->
                EmbeddedPostgresSettings.isWanted(
                    environment(Map.of("shop.embedded-postgres.enabled", "maybe"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value 'maybe' for property 'shop.embedded-postgres.enabled': expected true or"
                + " false");
  }

  @Test
  void aDataDirThatIsAFileIsRejected(@TempDir Path temp) throws Exception {
    Path file = Files.writeString(temp.resolve("file"), "x");

    assertInvalid("shop.embedded-postgres.data-dir", file.toString());
  }

  private static void assertInvalid(String property, String value) {
    assertThatThrownBy(() -> EmbeddedPostgresSettings.from(environment(Map.of(property, value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid value '" + value.strip())
        .hasMessageContaining("for property '" + property + "'");
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
