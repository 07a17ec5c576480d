package dev.once.shop.database;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Points {@code spring.datasource.*} at an embedded PostgreSQL server when no database is
 * configured, so that Boot's DataSource, Flyway and everything else work unchanged.
 *
 * <p>Nothing happens if {@code spring.datasource.url} is set (property, {@code
 * SPRING_DATASOURCE_URL}, application.yml, ...) or {@code shop.embedded-postgres.enabled=false}.
 * Otherwise the server for {@code shop.embedded-postgres.data-dir} is obtained from {@link
 * EmbeddedPostgresServer#acquire} (started once per JVM, shared by all contexts) and a property
 * source with the highest precedence supplies {@code spring.datasource.url}, {@code username} and
 * {@code password}. See {@link EmbeddedPostgresSettings} for the properties.
 *
 * <p>Registered in {@code META-INF/spring.factories}; it runs after the config-data processor, so
 * application.yml and profiles are taken into account.
 */
public class EmbeddedPostgresEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

  /** Name of the property source added to the environment. */
  public static final String PROPERTY_SOURCE_NAME = "shopEmbeddedPostgres";

  private final Log log;

  /**
   * Creates the post-processor; Boot supplies the factory.
   *
   * @param logFactory deferred logging, replayed once Boot's logging system is initialised (it is
   *     not yet when environment post-processors run)
   */
  public EmbeddedPostgresEnvironmentPostProcessor(DeferredLogFactory logFactory) {
    this.log = logFactory.getLog(EmbeddedPostgresEnvironmentPostProcessor.class);
  }

  @Override
  public int getOrder() {
    // After ConfigDataEnvironmentPostProcessor (HIGHEST_PRECEDENCE + 10), which loads
    // application.yml: a URL configured there must switch the embedded server off.
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    Optional<EmbeddedPostgresSettings> settings = EmbeddedPostgresSettings.from(environment);
    if (settings.isEmpty()) {
      log.debug(
          "Not starting the embedded PostgreSQL: "
              + EmbeddedPostgresSettings.DATASOURCE_URL
              + " is set or "
              + EmbeddedPostgresSettings.ENABLED
              + "=false");
      return;
    }
    EmbeddedPostgresServer.Acquisition acquisition =
        EmbeddedPostgresServer.acquire(settings.get(), log);
    EmbeddedPostgresServer server = acquisition.server();
    EmbeddedDatabaseRoles.Logins logins = EmbeddedDatabaseRoles.ensure(server, log);
    String url = server.jdbcUrl(EmbeddedDatabaseRoles.DATABASE);

    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(EmbeddedPostgresSettings.DATASOURCE_URL, url);
    properties.put("spring.datasource.username", logins.application().user());
    properties.put("spring.datasource.password", logins.application().password());
    // Migrations run as the schema owner; the application's role only gets what afterMigrate.sql
    // grants it (docs/security.md).
    properties.put("spring.flyway.user", logins.owner().user());
    properties.put("spring.flyway.password", logins.owner().password());
    // First: a username/password meant for an external server (application.yml) must not be
    // applied to the embedded one.
    environment
        .getPropertySources()
        .addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, properties));

    String message =
        "Embedded PostgreSQL: data in "
            + server.dataDirectory()
            + ", JDBC URL "
            + url
            + " (application role "
            + logins.application().user()
            + ", migrations as "
            + logins.owner().user()
            + "), PostgreSQL log in "
            + server.logFile()
            + ". Set "
            + EmbeddedPostgresSettings.DATASOURCE_URL
            + " to use another server.";
    if (acquisition.started()) {
      log.info(message);
    } else {
      log.debug("Reusing the running " + message);
    }
  }
}
