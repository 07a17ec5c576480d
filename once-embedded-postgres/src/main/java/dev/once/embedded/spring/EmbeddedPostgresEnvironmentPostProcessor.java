package dev.once.embedded.spring;

import static dev.once.embedded.EmbeddedPostgresProperties.DATASOURCE_URL;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * The embedded default of a Spring Boot service: when no database is configured (no non-blank
 * {@value dev.once.embedded.EmbeddedPostgresProperties#DATASOURCE_URL}) and {@code
 * once.embedded-postgres.enabled} is not false, starts the embedded PostgreSQL on the data
 * directory (once per JVM, shared by every context), makes its database with the two roles, and
 * points {@code spring.datasource.*} at it as the application's role and {@code spring.flyway.user}
 * and {@code password} at the schema owner, ahead of every other property source: Boot's
 * DataSource, Flyway and everything else work unchanged. Registered in {@code
 * META-INF/spring.factories}; unordered, it runs last: after application.yml. The log names the
 * data directory, the URL and the roles, never a password.
 */
public class EmbeddedPostgresEnvironmentPostProcessor implements EnvironmentPostProcessor {

  /** The name of the property source it adds; {@link EmbeddedPostgresSupervisor} looks for it. */
  public static final String PROPERTY_SOURCE_NAME = "onceEmbeddedPostgres";

  private final Log log;

  /**
   * Boot supplies a deferred log, replayed once Boot's logging is up (not yet when this runs).
   *
   * @param logFactory Boot's deferred logs
   */
  public EmbeddedPostgresEnvironmentPostProcessor(DeferredLogFactory logFactory) {
    this.log = logFactory.getLog(EmbeddedPostgresEnvironmentPostProcessor.class);
  }

  /**
   * The settings, or empty if the embedded server is not wanted: {@value
   * dev.once.embedded.EmbeddedPostgresProperties#DATASOURCE_URL} (or {@code SPRING_DATASOURCE_URL})
   * is set and not blank, or {@code enabled} is false.
   *
   * @param environment the environment
   * @return the settings, if the embedded server is wanted
   * @throws org.springframework.boot.context.properties.bind.BindException if a value cannot be
   *     converted (the message names the property)
   */
  public static Optional<EmbeddedPostgresSettings> settings(Environment environment) {
    String url = environment.getProperty(DATASOURCE_URL);
    if (url != null && !url.isBlank()) { // blank: "SPRING_DATASOURCE_URL=" in a compose file
      return Optional.empty();
    }
    return Optional.of(EmbeddedPostgresSettings.of(environment))
        .filter(EmbeddedPostgresSettings::enabled);
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    EmbeddedPostgresSettings settings = settings(environment).orElse(null);
    if (settings == null) {
      log.debug("Not starting the embedded PostgreSQL: a datasource URL is set, or enabled=false");
      return;
    }
    EmbeddedPostgresServer.Acquisition acquisition =
        EmbeddedPostgresServer.acquire(settings.dataDirectory(), settings.port(), log);
    EmbeddedPostgresServer server = acquisition.server();
    EmbeddedDatabase database = server.database(settings.database(), log);
    String url = database.jdbcUrl();
    // First, so that a login meant for an external server is not applied. Migrations run as the
    // schema owner; the application's role gets what the migrations grant it.
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(DATASOURCE_URL, url);
    properties.put("spring.datasource.username", database.application().user());
    properties.put("spring.datasource.password", database.application().password());
    properties.put("spring.flyway.user", database.owner().user());
    properties.put("spring.flyway.password", database.owner().password());
    MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE_NAME, properties);
    environment.getPropertySources().addFirst(source);
    String message =
        ("Embedded PostgreSQL: data in %s, JDBC URL %s (application role %s, migrations as %s),"
                + " PostgreSQL log in %s. Set %s to use another server.")
            .formatted(
                server.dataDirectory(),
                url,
                database.application().user(),
                database.owner().user(),
                server.logFile(),
                DATASOURCE_URL);
    if (acquisition.started()) { // once per JVM, not again for each context that reuses it
      log.info(message);
    }
  }
}
