package dev.once.shop.database;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;

/**
 * Checked settings of the embedded PostgreSQL server, bound from {@code shop.embedded-postgres.*}:
 * {@value #ENABLED} (default {@code true}), {@value #DATA_DIR} (default {@value #DEFAULT_DATA_DIR},
 * relative to the working directory) and {@value #PORT} (default {@code 0}, any free port on {@code
 * localhost}).
 *
 * @param dataDirectory absolute, normalised data directory (it may not exist yet)
 * @param port TCP port, {@code 0} for any free port
 */
public record EmbeddedPostgresSettings(Path dataDirectory, int port) {

  /** The standard Boot property whose presence switches the embedded server off. */
  public static final String DATASOURCE_URL = "spring.datasource.url";

  /** Common prefix of the embedded server's properties. */
  public static final String PREFIX = "shop.embedded-postgres";

  /** Property: whether the embedded server may be started at all. */
  public static final String ENABLED = PREFIX + ".enabled";

  /** Property: the data directory. */
  public static final String DATA_DIR = PREFIX + ".data-dir";

  /** Property: the TCP port, 0 for any free port. */
  public static final String PORT = PREFIX + ".port";

  /** Default data directory, relative to the working directory. */
  public static final String DEFAULT_DATA_DIR = "data/postgres";

  /** The properties as Boot binds them. */
  record Properties(
      @DefaultValue("true") boolean enabled,
      @DefaultValue(DEFAULT_DATA_DIR) String dataDir,
      int port) {}

  /**
   * Normalises and checks the values.
   *
   * @throws IllegalArgumentException naming the property and the bad value
   */
  public EmbeddedPostgresSettings {
    dataDirectory = dataDirectory.toAbsolutePath().normalize();
    if (Files.exists(dataDirectory) && !Files.isDirectory(dataDirectory)) {
      throw invalid(DATA_DIR, dataDirectory, "it exists but is not a directory");
    }
    if (port < 0 || port > 65_535) {
      throw invalid(PORT, port, "expected 0 (any free port) or a port from 1 to 65535");
    }
  }

  /**
   * The settings, or empty if the embedded server is not wanted: {@value #DATASOURCE_URL} (or
   * {@code SPRING_DATASOURCE_URL}) is set and not blank, or {@value #ENABLED} is {@code false}.
   *
   * @param environment the environment to read
   * @return the settings, if the embedded server should be started
   * @throws IllegalArgumentException naming the property and the bad value
   */
  public static Optional<EmbeddedPostgresSettings> from(Environment environment) {
    String url = environment.getProperty(DATASOURCE_URL);
    // A blank URL (e.g. SPRING_DATASOURCE_URL= in a compose file) means "not configured".
    if (url != null && !url.isBlank()) {
      return Optional.empty();
    }
    Properties properties;
    try {
      properties = Binder.get(environment).bindOrCreate(PREFIX, Properties.class);
    } catch (BindException e) {
      if (e.getProperty() == null) {
        throw e;
      }
      throw invalid(
          e.getProperty().getName().toString(),
          e.getProperty().getValue(),
          NestedExceptionUtils.getMostSpecificCause(e).getMessage());
    }
    if (!properties.enabled()) {
      return Optional.empty();
    }
    String dir = properties.dataDir();
    if (dir.isBlank()) {
      throw invalid(DATA_DIR, dir, "expected a directory path");
    }
    try {
      return Optional.of(new EmbeddedPostgresSettings(Path.of(dir.strip()), properties.port()));
    } catch (InvalidPathException e) {
      throw invalid(DATA_DIR, dir, "not a valid path: " + e.getReason());
    }
  }

  static IllegalArgumentException invalid(String property, Object value, String reason) {
    return new IllegalArgumentException(invalidValue(property, value, reason));
  }

  static String invalidValue(String property, Object value, String reason) {
    return "Invalid value '%s' for property '%s': %s".formatted(value, property, reason);
  }
}
