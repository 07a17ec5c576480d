package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyStore;
import dev.once.postgres.PostgresStores;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.SameDataSource;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Auto-configuration of Once's core on the application's {@link DataSource}: the idempotency engine
 * and its PostgreSQL store, the purge of expired keys, Once's threads, the migration of Once's
 * tables, the eviction of connections a failover left read-only from HikariCP pools, the
 * application role's placeholder for Boot's Flyway, and the check that the transaction manager of
 * the idempotency filter manages that DataSource. It binds {@link OnceProperties}.
 *
 * <p>Each capability has an auto-configuration of its own in its package, ordered after this one
 * (they use its beans and properties): {@code OnceTracingAutoConfiguration}, {@code
 * OnceOutboxAutoConfiguration}, {@code OnceEventsAutoConfiguration}, {@code
 * OnceMetricsAutoConfiguration}, {@code OnceInboxAutoConfiguration}, {@code
 * OnceRelayAutoConfiguration}, {@code OnceRelayMetricsAutoConfiguration}, {@code
 * OnceWebAutoConfiguration} and {@code OnceActuateAutoConfiguration}; all are listed in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}, and
 * docs/architecture.md gives their order and why.
 */
@AutoConfiguration(
    after = {
      DataSourceAutoConfiguration.class,
      DataSourceTransactionManagerAutoConfiguration.class
    })
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(OnceProperties.class)
// Spring Boot's ordering of database initialization (OnceSchemaInitialization): Once's stores after
// Once's migration and the application's own, whichever auto-configurations are present.
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class OnceAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  IdempotencyStore onceIdempotencyStore() {
    return PostgresStores.idempotencyStore();
  }

  @Bean
  @ConditionalOnMissingBean
  IdempotencyEngine onceIdempotencyEngine(OnceProperties properties, IdempotencyStore store) {
    return IdempotencyEngine.builder(store)
        .retention(properties.idempotency().retention())
        .retryAfter(properties.idempotency().retryAfter())
        .lease(properties.idempotency().lease())
        .build();
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "once.idempotency.purge.enabled", matchIfMissing = true)
  IdempotencyKeyPurger onceIdempotencyKeyPurger(
      IdempotencyEngine engine,
      DataSource dataSource,
      OnceProperties properties,
      OnceThreads threads) {
    OnceProperties.Purge purge = properties.idempotency().purge();
    return new IdempotencyKeyPurger(
        engine, dataSource, purge.interval(), purge.batchSize(), purge.maxRunTime(), threads);
  }

  /**
   * Once's own threads (the relay's, the purges', the gauges'): virtual with {@code
   * spring.threads.virtual.enabled=true} on Java 21 or later, platform threads otherwise.
   */
  @Bean
  @ConditionalOnMissingBean
  OnceThreads onceThreads(Environment environment) {
    return OnceThreads.of(environment);
  }

  /**
   * HikariCP pools close connections that a failover left read-only, when HikariCP is present and
   * {@code once.datasource.failover-eviction} is not false: see {@link FailoverEviction}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.zaxxer.hikari.HikariDataSource")
  @ConditionalOnBooleanProperty(name = "once.datasource.failover-eviction", matchIfMissing = true)
  static class HikariConfiguration {
    @Bean
    static BeanPostProcessor onceFailoverEviction() {
      return new FailoverEviction();
    }
  }

  /** Once's own Flyway migration, when Flyway is present and not turned off. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.flywaydb.core.Flyway")
  @ConditionalOnBooleanProperty(name = "once.schema.migrate", matchIfMissing = true)
  static class SchemaConfiguration {
    @Bean
    @ConditionalOnMissingBean
    OnceSchemaMigration onceSchemaMigration(
        DataSource dataSource, ObjectProvider<Flyway> applicationFlyway) {
      // The application's own Flyway knows the schema owner (spring.flyway.user/password/url):
      // Once's tables get the same owner, and the application's role is granted what it needs.
      Flyway flyway = applicationFlyway.getIfUnique();
      DataSource migrator = flyway == null ? dataSource : flyway.getConfiguration().getDataSource();
      return new OnceSchemaMigration(migrator, ApplicationRole.of(dataSource));
    }
  }

  /**
   * Boot's Flyway, when the application uses it, gets the placeholder {@value
   * ApplicationRole#PLACEHOLDER} as Once's migration does: see {@link ApplicationRolePlaceholder}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = "org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer")
  static class ApplicationRolePlaceholderConfiguration {
    @Bean
    ApplicationRolePlaceholder onceApplicationRolePlaceholder(
        ObjectProvider<DataSource> dataSource) {
      return new ApplicationRolePlaceholder(dataSource::getIfUnique);
    }
  }

  /**
   * Under the conditions of the idempotency filter ({@code
   * dev.once.spring.web.OnceWebAutoConfiguration}), the transaction manager must manage the
   * DataSource of the idempotency store, so that the key claim and the handler's writes share one
   * transaction.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnBean(PlatformTransactionManager.class)
  @ConditionalOnBooleanProperty(name = "once.idempotency.http.enabled", matchIfMissing = true)
  static class IdempotencyTransactionsConfiguration {
    @Bean
    SmartInitializingSingleton onceIdempotencySameDataSource(
        PlatformTransactionManager transactions, DataSource dataSource) {
      SameDataSource.require(
          transactions,
          dataSource,
          "the idempotency store, so that the key claim and the handler's writes share one"
              + " transaction");
      return () -> {};
    }
  }
}
