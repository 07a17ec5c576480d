package dev.once.embedded.spring;

import static dev.once.embedded.EmbeddedPostgresProperties.DATASOURCE_URL;
import static dev.once.embedded.EmbeddedPostgresProperties.DATA_DIR;
import static dev.once.embedded.EmbeddedPostgresProperties.LEGACY_PREFIX;
import static dev.once.embedded.EmbeddedPostgresProperties.PREFIX;
import static dev.once.embedded.EmbeddedPostgresProperties.invalidValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The {@code once.embedded-postgres.*} properties, bound by Boot's {@link Binder} (which names the
 * property of a value it cannot convert). Each is also read under its earlier name, {@code
 * shop.embedded-postgres.*}, when the new one is not set.
 *
 * @param enabled whether the server may be started when no {@code spring.datasource.url} is set
 *     (default true)
 * @param dataDir the data directory, relative to the working directory (default {@value
 *     #DEFAULT_DATA_DIR}; in a {@code @SpringBootTest}, {@value #DEFAULT_TEST_DATA_DIR})
 * @param port the TCP port on {@code localhost}, 0 (the default) for any free port
 * @param database the database's name; its roles are {@code <database>_owner} and {@code
 *     <database>_app} (default {@value #DEFAULT_DATABASE})
 * @param restartTimeout how long the supervisor tries to restart a server that died, before it
 *     exits the JVM (default 30 s)
 */
public record EmbeddedPostgresSettings(
    boolean enabled, String dataDir, int port, String database, Duration restartTimeout) {

  /** The defaults of {@code data-dir} and {@code database}. */
  public static final String DEFAULT_DATA_DIR = "data/postgres", DEFAULT_DATABASE = "app";

  /**
   * The default of {@code data-dir} in a {@code @SpringBootTest}, which Maven's {@code clean}
   * removes: a test run leaves nothing in the project's folder.
   */
  public static final String DEFAULT_TEST_DATA_DIR = "target/embedded-postgres";

  /**
   * A property that Spring Boot's test support sets in the environment of every {@code
   * SpringBootTest} context.
   */
  static final String SPRING_BOOT_TEST = // SpringBootTestContextBootstrapper's marker
      "org.springframework.boot.test.context.SpringBootTestContextBootstrapper";

  /** The system property Spring sets while it processes an application ahead of time. */
  static final String AOT_PROCESSING = "spring.aot.processing"; // AbstractAotProcessor's

  /** Boot's property that takes a DataSource from JNDI. */
  static final String DATASOURCE_JNDI_NAME = "spring.datasource.jndi-name";

  /**
   * The settings, or empty if the embedded server is not wanted: a database is configured by a
   * property (a non-blank {@value dev.once.embedded.EmbeddedPostgresProperties#DATASOURCE_URL}, or
   * {@code SPRING_DATASOURCE_URL}, or {@code spring.datasource.jndi-name}), {@code enabled} is
   * false, or Spring AOT is processing the application (system property {@code
   * spring.aot.processing}).
   *
   * @param environment the environment
   * @return the settings, if the embedded server is wanted
   * @throws org.springframework.boot.context.properties.bind.BindException if a value cannot be
   *     converted (the message names the property)
   */
  public static Optional<EmbeddedPostgresSettings> wanted(Environment environment) {
    if (Boolean.getBoolean(AOT_PROCESSING) || configuredByProperty(environment)) {
      return Optional.empty();
    }
    return Optional.of(of(environment)).filter(EmbeddedPostgresSettings::enabled);
  }

  /**
   * Whether a property names the database: a non-blank URL or a JNDI name.
   *
   * @param environment the environment
   * @return whether another database is configured
   */
  static boolean configuredByProperty(Environment environment) {
    return hasText(environment.getProperty(DATASOURCE_URL)) // blank: "SPRING_DATASOURCE_URL="
        || hasText(environment.getProperty(DATASOURCE_JNDI_NAME));
  }

  private static boolean hasText(String value) {
    return value != null && !value.isBlank();
  }

  /**
   * The settings of an environment, defaults for what is not set.
   *
   * @param environment the environment
   * @return the settings
   * @throws org.springframework.boot.context.properties.bind.BindException if a value cannot be
   *     converted
   */
  public static EmbeddedPostgresSettings of(Environment environment) {
    Binder binder = Binder.get(environment);
    return new EmbeddedPostgresSettings(
        bind(binder, "enabled", Boolean.class, true),
        bind(
            binder,
            "data-dir",
            String.class,
            environment.containsProperty(SPRING_BOOT_TEST)
                ? DEFAULT_TEST_DATA_DIR
                : DEFAULT_DATA_DIR),
        bind(binder, "port", Integer.class, 0),
        bind(binder, "database", String.class, DEFAULT_DATABASE).strip(),
        bind(binder, "restart-timeout", Duration.class, Duration.ofSeconds(30)));
  }

  private static <T> T bind(Binder binder, String name, Class<T> type, T otherwise) {
    Bindable<T> bindable = Bindable.of(type);
    return binder
        .bind(PREFIX + "." + name, bindable)
        .orElseGet(() -> binder.bind(LEGACY_PREFIX + "." + name, bindable).orElse(otherwise));
  }

  /**
   * The data directory, absolute and normalised.
   *
   * @return the data directory
   * @throws IllegalArgumentException if it is blank, not a path, or a file
   */
  public Path dataDirectory() {
    String path = dataDir.strip();
    if (path.isEmpty() || path.contains("\0") || Files.isRegularFile(Path.of(path))) {
      String problem = "expected the path of a directory";
      throw new IllegalArgumentException(invalidValue(DATA_DIR, dataDir, problem));
    }
    return Path.of(path).toAbsolutePath().normalize();
  }
}
