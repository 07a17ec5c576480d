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
    EmbeddedPostgresSettings settings = settings(Map.of());

    assertThat(settings.dataDirectory())
        .isEqualTo(Path.of("data", "postgres").toAbsolutePath().normalize());
    assertThat(settings.port()).isZero();
  }

  @Test
  void readsProperties() {
    EmbeddedPostgresSettings settings =
        settings(
            Map.of(
                "shop.embedded-postgres.data-dir", "target/./pg",
                "shop.embedded-postgres.port", " 15432 ",
                "shop.embedded-postgres.enabled", "TRUE"));

    assertThat(settings.dataDirectory()).isEqualTo(Path.of("target/pg").toAbsolutePath());
    assertThat(settings.port()).isEqualTo(15432);
  }

  @Test
  void aConfiguredUrlOrEnabledFalseMeansNoEmbeddedServer() {
    StandardEnvironment withEnvironmentVariable = environment(Map.of());
    withEnvironmentVariable
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "env", Map.of("SPRING_DATASOURCE_URL", "jdbc:postgresql://db:5432/shop")));

    assertThat(EmbeddedPostgresSettings.from(withEnvironmentVariable)).isEmpty();
    assertThat(
            EmbeddedPostgresSettings.from(
                environment(Map.of("spring.datasource.url", "jdbc:postgresql://db/shop"))))
        .isEmpty();
    assertThat(
            EmbeddedPostgresSettings.from(
                environment(Map.of("shop.embedded-postgres.enabled", "false"))))
        .isEmpty();
    assertThat(EmbeddedPostgresSettings.from(environment(Map.of("spring.datasource.url", " "))))
        .as("a blank URL counts as not configured")
        .isPresent();
  }

  @Test
  void badValuesNameThePropertyAndTheValue() {
    assertInvalid("shop.embedded-postgres.port", "abc");
    assertInvalid("shop.embedded-postgres.port", "-1");
    assertInvalid("shop.embedded-postgres.port", "65536");
    assertInvalid("shop.embedded-postgres.port", "99999999999");
    assertInvalid("shop.embedded-postgres.data-dir", " ");
    assertInvalid("shop.embedded-postgres.data-dir", "bad\0path");
    // Boot's binder reads yes/no/on/off as booleans too; anything else is refused.
    assertThatThrownBy(() -> settings(Map.of("shop.embedded-postgres.enabled", "maybe")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid value 'maybe' for property 'shop.embedded-postgres.enabled': Invalid boolean"
                + " value 'maybe'");
  }

  @Test
  void aDataDirThatIsAFileIsRejected(@TempDir Path temp) throws Exception {
    Path file = Files.writeString(temp.resolve("file"), "x");

    assertInvalid("shop.embedded-postgres.data-dir", file.toString());
  }

  private static void assertInvalid(String property, String value) {
    assertThatThrownBy(() -> settings(Map.of(property, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid value '" + value.strip())
        .hasMessageContaining("for property '" + property + "'");
  }

  private static EmbeddedPostgresSettings settings(Map<String, Object> properties) {
    return EmbeddedPostgresSettings.from(environment(properties)).orElseThrow();
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
