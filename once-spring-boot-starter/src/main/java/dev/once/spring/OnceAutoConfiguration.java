package dev.once.spring;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyStore;
import dev.once.inbox.InboxConsumer;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStore;
import dev.once.postgres.PostgresStores;
import dev.once.spring.metrics.IdempotencyMetrics;
import dev.once.spring.outbox.ApplicationRelayWakeUp;
import dev.once.spring.outbox.OutboxHandler;
import dev.once.spring.outbox.OutboxLoadShedding;
import dev.once.spring.outbox.RelayWakeUp;
import dev.once.spring.outbox.TransactionalOutbox;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of Once on the application's {@link DataSource} and transaction manager: the
 * idempotency engine and its PostgreSQL store, the {@code Idempotency-Key} servlet filter, the
 * transactional outbox and its relay (running every {@link OutboxHandler} bean and delivering
 * events to every {@link InboxConsumer} bean through the inbox), the purges of expired keys and old
 * inbox records, their metrics, and the migration of Once's tables; with Jackson 3, typed events
 * ({@code dev.once.spring.events.EventsConfiguration}).
 */
@AutoConfiguration(
    after = {
      DataSourceAutoConfiguration.class,
      DataSourceTransactionManagerAutoConfiguration.class
    })
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(OnceProperties.class)
@Import(OnceAutoConfiguration.PackageConfigurations.class)
public class OnceAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  IdempotencyStore onceIdempotencyStore() {
    return PostgresStores.idempotencyStore();
  }

  @Bean
  @ConditionalOnMissingBean
  IdempotencyEngine onceIdempotencyEngine(
      OnceProperties properties,
      IdempotencyStore store,
      ObjectProvider<OnceSchemaMigration> migration) {
    // The tables must exist before the engine is used.
    migration.ifAvailable(m -> {});
    return IdempotencyEngine.builder(store)
        .retention(properties.idempotency().retention())
        .retryAfter(properties.idempotency().retryAfter())
        .lease(properties.idempotency().lease())
        .build();
  }

  /** The outbox's storage; its tables are migrated first. */
  @Bean
  @ConditionalOnMissingBean
  OutboxStore onceOutboxStore(
      DataSource dataSource, ObjectProvider<OnceSchemaMigration> migration) {
    migration.ifAvailable(m -> {});
    return PostgresStores.outboxStore(dataSource);
  }

  /** Dead rows, requeue and stats for operators. */
  @Bean
  @ConditionalOnMissingBean
  OutboxAdmin onceOutboxAdmin(OutboxStore store) {
    return OutboxAdmin.of(store);
  }

  /** Wakes the relay, when one runs, after a transaction that appended rows commits. */
  @Bean
  @ConditionalOnMissingBean
  RelayWakeUp onceRelayWakeUp(ObjectProvider<OutboxRelay> relay) {
    return new ApplicationRelayWakeUp(relay);
  }

  /**
   * Load shedding on the outbox's backlog ({@code once.outbox.load-shedding.*}), off by default;
   * when on, its sampling thread starts and stops with the context.
   */
  @Bean
  @ConditionalOnMissingBean
  OutboxLoadShedding onceOutboxLoadShedding(
      OnceProperties properties, ObjectProvider<OutboxAdmin> admin) {
    OnceProperties.LoadShedding shedding = properties.outbox().loadShedding();
    return shedding.enabled()
        ? new OutboxLoadShedding(admin.getObject(), shedding.maxDueAge(), shedding.sampleInterval())
        : OutboxLoadShedding.off();
  }

  /**
   * The one outbox applications inject: it appends on the connection of the Spring transaction in
   * progress. once-core's connection-level {@link Outbox} it wraps is not a bean, so nothing
   * appends outside the transaction by mistake.
   */
  @Bean
  @ConditionalOnMissingBean
  TransactionalOutbox onceTransactionalOutbox(
      OutboxStore store,
      DataSource dataSource,
      RelayWakeUp wakeUp,
      ObjectProvider<InboxConsumer> consumers,
      ObjectProvider<EventTransport> transports,
      OutboxLoadShedding shedding) {
    // An event is written if a consumer of this application takes its type, or a transport carries
    // it out of the process (once-kafka's publisher: other services read the topic). The in-process
    // transport carries events only to this application's consumers. Read once, on first use, when
    // every bean exists.
    Supplier<Set<String>> consumedTypes =
        SingletonSupplier.of(
            () ->
                Stream.concat(
                        consumers.orderedStream().flatMap(consumer -> consumer.types().stream()),
                        transports
                            .orderedStream()
                            .filter(transport -> !(transport instanceof InProcessEventTransport))
                            .flatMap(transport -> transport.types().stream()))
                    .collect(Collectors.toUnmodifiableSet()));
    return new TransactionalOutbox(
        Outbox.of(store), dataSource, wakeUp, type -> consumedTypes.get().contains(type), shedding);
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "once.idempotency.purge.enabled", matchIfMissing = true)
  IdempotencyKeyPurger onceIdempotencyKeyPurger(
      IdempotencyEngine engine, DataSource dataSource, OnceProperties properties) {
    OnceProperties.Purge purge = properties.idempotency().purge();
    return new IdempotencyKeyPurger(
        engine, dataSource, purge.interval(), purge.batchSize(), purge.maxRunTime());
  }

  @Bean
  @ConditionalOnMissingBean
  IdempotencyMetrics onceNoIdempotencyMetrics() {
    return IdempotencyMetrics.NONE;
  }

  /**
   * HikariCP pools close connections that a failover left read-only, when HikariCP is present: see
   * {@link FailoverEviction}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.zaxxer.hikari.HikariDataSource")
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
   * Under the conditions of the idempotency filter ({@code dev.once.spring.web.WebConfiguration}),
   * the transaction manager must manage the DataSource of the idempotency store, so that the key
   * claim and the handler's writes share one transaction.
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

  /**
   * The configurations of the capability packages, by name: they are package-private there, so that
   * their beans' types need not be public. The events first: their listener consumers must exist
   * for the others' conditions.
   */
  static class PackageConfigurations implements ImportSelector {
    @Override
    public String[] selectImports(AnnotationMetadata metadata) {
      return new String[] {
        "dev.once.spring.events.EventsConfiguration",
        "dev.once.spring.metrics.MetricsConfiguration",
        InboxConfiguration.class.getName(),
        RelayConfiguration.class.getName(),
        // After the relay's: it is there if the relay's bean is.
        "dev.once.spring.metrics.RelayMetricsConfiguration",
        "dev.once.spring.web.OutboxOverloadedConfiguration",
        "dev.once.spring.web.WebConfiguration"
      };
    }
  }
}
