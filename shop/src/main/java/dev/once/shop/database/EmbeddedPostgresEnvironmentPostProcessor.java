package dev.once.shop.database;

import static dev.once.shop.database.EmbeddedDatabaseRoles.APPLICATION;
import static dev.once.shop.database.EmbeddedDatabaseRoles.OWNER;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Points {@code spring.datasource.*} (and Flyway's login) at the embedded PostgreSQL server when no
 * database is configured, so that Boot's DataSource, Flyway and everything else work unchanged.
 * Registered in {@code META-INF/spring.factories}; unordered, it runs last: after application.yml.
 */
public class EmbeddedPostgresEnvironmentPostProcessor implements EnvironmentPostProcessor {

  public static final String PROPERTY_SOURCE_NAME = "shopEmbeddedPostgres";

  /** Boot's property that switches the embedded server off, and those of the embedded server. */
  public static final String DATASOURCE_URL = "spring.datasource.url",
      DATA_DIR = "shop.embedded-postgres.data-dir",
      PORT = "shop.embedded-postgres.port";

  /**
   * The {@code shop.embedded-postgres.*} properties, bound by Boot's {@link Binder} (which names
   * the property of a value it cannot convert).
   *
   * @param enabled whether the server may be started when no {@value #DATASOURCE_URL} is set
   * @param dataDir the data directory, relative to the working directory
   * @param port the TCP port on {@code localhost}, 0 for any free port
   * @param restartTimeout how long the shop tries to restart a server that died, before it exits
   */
  public record Settings(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("data/postgres") String dataDir,
      int port,
      @DefaultValue("30s") Duration restartTimeout) {

    /** The data directory, absolute and normalised; refuses a blank one, a non-path or a file. */
    public Path dataDirectory() {
      String path = dataDir.strip();
      if (path.isEmpty() || path.contains("\0") || Files.isRegularFile(Path.of(path))) {
        String problem = "expected the path of a directory";
        throw new IllegalArgumentException(invalidValue(DATA_DIR, dataDir, problem));
      }
      return Path.of(path).toAbsolutePath().normalize();
    }
  }

  private final Log log;

  /** Boot supplies a deferred log, replayed once Boot's logging is up (not yet when this runs). */
  public EmbeddedPostgresEnvironmentPostProcessor(DeferredLogFactory logFactory) {
    this.log = logFactory.getLog(EmbeddedPostgresEnvironmentPostProcessor.class);
  }

  /**
   * The settings, or empty if the embedded server is not wanted: {@value #DATASOURCE_URL} (or
   * {@code SPRING_DATASOURCE_URL}) is set and not blank, or {@code enabled} is false.
   */
  public static Optional<Settings> settings(Environment environment) {
    String url = environment.getProperty(DATASOURCE_URL);
    if (url != null && !url.isBlank()) { // blank: "SPRING_DATASOURCE_URL=" in a compose file
      return Optional.empty();
    }
    Binder binder = Binder.get(environment);
    return Optional.of(binder.bindOrCreate("shop.embedded-postgres", Settings.class))
        .filter(Settings::enabled);
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    Settings settings = settings(environment).orElse(null);
    if (settings == null) {
      log.debug("Not starting the embedded PostgreSQL: a datasource URL is set, or enabled=false");
      return;
    }
    EmbeddedPostgresServer.Acquisition acquisition =
        EmbeddedPostgresServer.acquire(settings.dataDirectory(), settings.port(), log);
    EmbeddedPostgresServer server = acquisition.server();
    EmbeddedDatabaseRoles.Passwords passwords = EmbeddedDatabaseRoles.ensure(server, log);
    String url = server.jdbcUrl(EmbeddedDatabaseRoles.DATABASE);
    // First, so that a login meant for an external server is not applied. Migrations run as the
    // schema owner; the application's role gets what afterMigrate.sql grants it.
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(DATASOURCE_URL, url);
    properties.put("spring.datasource.username", APPLICATION);
    properties.put("spring.datasource.password", passwords.application());
    properties.put("spring.flyway.user", OWNER);
    properties.put("spring.flyway.password", passwords.owner());
    MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE_NAME, properties);
    environment.getPropertySources().addFirst(source);
    String message =
        ("Embedded PostgreSQL: data in %s, JDBC URL %s (application role %s, migrations as %s),"
                + " PostgreSQL log in %s. Set %s to use another server.")
            .formatted(
                server.dataDirectory(), url, APPLICATION, OWNER, server.logFile(), DATASOURCE_URL);
    if (acquisition.started()) { // once per JVM, not again for each context that reuses it
      log.info(message);
    }
  }

  static String invalidValue(String property, Object value, String reason) {
    return "Invalid value '%s' for property '%s': %s".formatted(value, property, reason);
  }
}
