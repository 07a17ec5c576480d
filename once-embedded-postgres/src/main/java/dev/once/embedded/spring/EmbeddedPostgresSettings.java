package dev.once.embedded.spring;

import static dev.once.embedded.EmbeddedPostgresProperties.DATA_DIR;
import static dev.once.embedded.EmbeddedPostgresProperties.LEGACY_PREFIX;
import static dev.once.embedded.EmbeddedPostgresProperties.PREFIX;
import static dev.once.embedded.EmbeddedPostgresProperties.invalidValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 *     #DEFAULT_DATA_DIR})
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
        bind(binder, "data-dir", String.class, DEFAULT_DATA_DIR),
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
