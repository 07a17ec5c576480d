package dev.once.embedded.spring;

import static dev.once.embedded.EmbeddedPostgresProperties.DATASOURCE_URL;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded PostgreSQL of a context that has no database of its own: a bean of {@link
 * EmbeddedPostgresAutoConfiguration}, which is there only when no {@code spring.datasource.url}, no
 * {@code JdbcConnectionDetails} bean and no {@code DataSource} bean supplies one. It runs once
 * every bean is defined and every property source is in the environment
 * ({@code @DynamicPropertySource} included), before any bean is made, and decides again from the
 * environment as it is then ({@link EmbeddedPostgresSettings#wanted}): under Spring AOT the bean
 * definitions were fixed at build time, so a URL set at run time, or an AOT build itself, must
 * still switch it off.
 *
 * <p>When wanted, it starts the server on the data directory (once per JVM, shared by every
 * context), makes its database with the two roles, and puts {@code spring.datasource.*} (the
 * application's role) and {@code spring.flyway.user} and {@code password} (the schema owner) ahead
 * of every other property source: Boot's DataSource, Flyway and everything else work unchanged. The
 * log names the data directory, the URL and the roles, never a password.
 */
public class EmbeddedPostgresStarter implements BeanFactoryPostProcessor, PriorityOrdered {

  /** The name of the property source it adds; {@link EmbeddedPostgresSupervisor} looks for it. */
  public static final String PROPERTY_SOURCE_NAME = "onceEmbeddedPostgres";

  private final ConfigurableEnvironment environment;
  private final Log log;

  /**
   * The starter of a context's environment.
   *
   * @param environment the context's environment, which it reads and adds its properties to
   */
  public EmbeddedPostgresStarter(ConfigurableEnvironment environment) {
    this(environment, LogFactory.getLog(EmbeddedPostgresStarter.class));
  }

  EmbeddedPostgresStarter(ConfigurableEnvironment environment, Log log) {
    this.environment = environment;
    this.log = log;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE; // before any post-processor that reads the datasource's
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    start();
  }

  /**
   * Starts the server and adds its properties, if the environment wants it.
   *
   * @return whether it did
   */
  public boolean start() {
    EmbeddedPostgresSettings settings = EmbeddedPostgresSettings.wanted(environment).orElse(null);
    if (settings == null) {
      log.debug(
          "Not starting the embedded PostgreSQL: a datasource URL or JNDI name is set,"
              + " enabled=false, or Spring AOT is processing");
      return false;
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
    return true;
  }
}
