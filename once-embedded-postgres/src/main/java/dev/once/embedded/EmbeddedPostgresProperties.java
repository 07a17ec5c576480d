package dev.once.embedded;

/**
 * The names of the embedded server's settings, as a Spring Boot service spells them ({@code
 * dev.once.embedded.spring}); messages about a refused value name the property to change. Each
 * {@value #PREFIX} property is also read under its earlier name with {@value #LEGACY_PREFIX}, when
 * the new one is not set.
 */
public final class EmbeddedPostgresProperties {

  /** The prefix of the module's properties, and the prefix they had in the shop. */
  public static final String PREFIX = "once.embedded-postgres",
      LEGACY_PREFIX = "shop.embedded-postgres";

  /** Boot's property whose (non-blank) value switches the embedded server off. */
  public static final String DATASOURCE_URL = "spring.datasource.url";

  /** The module's properties. */
  public static final String ENABLED = PREFIX + ".enabled",
      DATA_DIR = PREFIX + ".data-dir",
      PORT = PREFIX + ".port",
      DATABASE = PREFIX + ".database",
      RESTART_TIMEOUT = PREFIX + ".restart-timeout";

  private EmbeddedPostgresProperties() {}

  /**
   * A message about a refused value, in Spring Boot's words.
   *
   * @param property the property's name
   * @param value the refused value
   * @param reason why it is refused
   * @return {@code Invalid value '<value>' for property '<property>': <reason>}
   */
  public static String invalidValue(String property, Object value, String reason) {
    return "Invalid value '%s' for property '%s': %s".formatted(value, property, reason);
  }
}
