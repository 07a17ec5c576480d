package dev.once.shop.database;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.springframework.core.env.PropertyResolver;

/**
 * Validated settings of the embedded PostgreSQL server, read from the {@code
 * shop.embedded-postgres.*} properties.
 *
 * <ul>
 *   <li>{@value #ENABLED} (default {@code true}): start the embedded server when no {@value
 *       #DATASOURCE_URL} is configured.
 *   <li>{@value #DATA_DIR} (default {@value #DEFAULT_DATA_DIR}, relative to the working directory):
 *       where the cluster lives across restarts.
 *   <li>{@value #PORT} (default {@code 0} = any free port): the TCP port on {@code localhost}.
 *   <li>{@value #CLEAN} (default {@code false}): wipe the data directory when this JVM starts the
 *       server, for tests that need an empty database.
 * </ul>
 *
 * @param dataDirectory absolute, normalised data directory (it may not exist yet)
 * @param port TCP port, {@code 0} for any free port
 * @param clean whether the data directory is wiped before the server is started
 */
public record EmbeddedPostgresSettings(Path dataDirectory, int port, boolean clean) {

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

  /** Property: wipe the data directory when the server is started by this JVM. */
  public static final String CLEAN = PREFIX + ".clean";

  /** Default data directory, relative to the working directory. */
  public static final String DEFAULT_DATA_DIR = "data/postgres";

  private static final int MAX_PORT = 65_535;

  /**
   * Validates and normalises the values.
   *
   * @throws IllegalArgumentException naming the property and the bad value
   */
  public EmbeddedPostgresSettings {
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    dataDirectory = dataDirectory.toAbsolutePath().normalize();
    if (Files.exists(dataDirectory) && !Files.isDirectory(dataDirectory)) {
      throw invalid(DATA_DIR, dataDirectory.toString(), "it exists but is not a directory");
    }
    if (port < 0 || port > MAX_PORT) {
      throw invalid(
          PORT, Integer.toString(port), "expected 0 (any free port) or a port from 1 to 65535");
    }
  }

  /**
   * Whether the embedded server should be used: no {@value #DATASOURCE_URL} (property or {@code
   * SPRING_DATASOURCE_URL}) is set, and {@value #ENABLED} is not {@code false}.
   *
   * @param properties the environment to read
   * @return {@code true} if the embedded server should be started
   * @throws IllegalArgumentException if {@value #ENABLED} is not a boolean
   */
  public static boolean isWanted(PropertyResolver properties) {
    String url = properties.getProperty(DATASOURCE_URL);
    // A blank URL (e.g. SPRING_DATASOURCE_URL= in a compose file) means "not configured".
    if (url != null && !url.isBlank()) {
      return false;
    }
    return parseBoolean(ENABLED, properties.getProperty(ENABLED), true);
  }

  /**
   * Reads and validates the settings.
   *
   * @param properties the environment to read
   * @return the settings
   * @throws IllegalArgumentException naming the property and the bad value
   */
  public static EmbeddedPostgresSettings from(PropertyResolver properties) {
    String dir = properties.getProperty(DATA_DIR);
    if (dir == null) {
      dir = DEFAULT_DATA_DIR;
    }
    if (dir.isBlank()) {
      throw invalid(DATA_DIR, dir, "expected a directory path");
    }
    Path dataDirectory;
    try {
      dataDirectory = Path.of(dir.strip());
    } catch (InvalidPathException e) {
      throw invalid(DATA_DIR, dir, "not a valid path: " + e.getReason());
    }
    int port = parsePort(properties.getProperty(PORT));
    boolean clean = parseBoolean(CLEAN, properties.getProperty(CLEAN), false);
    return new EmbeddedPostgresSettings(dataDirectory, port, clean);
  }

  private static int parsePort(String value) {
    if (value == null) {
      return 0;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw invalid(PORT, value, "expected 0 (any free port) or a port from 1 to 65535");
    }
  }

  private static boolean parseBoolean(String property, String value, boolean defaultValue) {
    if (value == null) {
      return defaultValue;
    }
    // Boolean.parseBoolean would silently read "yes" or "ture" as false.
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(property, value, "expected true or false");
    };
  }

  private static IllegalArgumentException invalid(String property, String value, String reason) {
    return new IllegalArgumentException(
        "Invalid value '" + value + "' for property '" + property + "': " + reason);
  }
}
