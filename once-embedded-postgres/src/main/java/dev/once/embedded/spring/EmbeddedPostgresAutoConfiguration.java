package dev.once.embedded.spring;

import java.io.IOException;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The embedded default, only where nothing else supplies the database: no {@code
 * spring.datasource.url} (or JNDI name) in any property source, {@code @DynamicPropertySource} and
 * test properties included; no {@code JdbcConnectionDetails} bean (what Testcontainers'
 * {@code @ServiceConnection} and Docker Compose support register); no {@code DataSource} bean of
 * the application's own; and {@code once.embedded-postgres.enabled} not false. Ordered before
 * Boot's DataSource and Flyway auto-configurations, after Testcontainers' service connections. Its
 * {@link EmbeddedPostgresStarter} starts the server before any bean is made (and never while Spring
 * AOT processes the application), its {@link EmbeddedPostgresSupervisor} restarts it when it dies.
 * Registered in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}.
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.JndiDataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.XADataSourceAutoConfiguration",
      "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration"
    },
    afterName =
        "org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration")
@Conditional(EmbeddedPostgresAutoConfiguration.NoConfiguredDatabase.class)
@ConditionalOnMissingBean(
    value = DataSource.class,
    type = "org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails")
public class EmbeddedPostgresAutoConfiguration {

  /**
   * The starter: static, because it post-processes the bean factory.
   *
   * @param environment the context's environment
   * @return the starter
   */
  @Bean
  public static EmbeddedPostgresStarter embeddedPostgresStarter(
      ConfigurableEnvironment environment) {
    return new EmbeddedPostgresStarter(environment);
  }

  /**
   * The supervisor; it does nothing when the starter decided against the server at run time.
   *
   * @param context the context it supervises the server of
   * @return the supervisor
   * @throws IOException if the data directory is gone
   */
  @Bean
  public EmbeddedPostgresSupervisor embeddedPostgresSupervisor(
      ConfigurableApplicationContext context) throws IOException {
    return new EmbeddedPostgresSupervisor(context);
  }

  /** No datasource URL or JNDI name, and not {@code once.embedded-postgres.enabled=false}. */
  static class NoConfiguredDatabase extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(
        ConditionContext context, AnnotatedTypeMetadata metadata) {
      if (EmbeddedPostgresSettings.configuredByProperty(context.getEnvironment())) {
        return ConditionOutcome.noMatch("a datasource URL or JNDI name is set");
      }
      if (!EmbeddedPostgresSettings.of(context.getEnvironment()).enabled()) {
        return ConditionOutcome.noMatch("once.embedded-postgres.enabled is false");
      }
      return ConditionOutcome.match("no datasource URL or JNDI name is set");
    }
  }
}
