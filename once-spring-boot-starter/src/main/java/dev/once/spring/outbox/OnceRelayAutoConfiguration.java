package dev.once.spring.outbox;

import dev.once.events.EventTransport;
import dev.once.inbox.InboxConsumer;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStore;
import dev.once.outbox.RelayListener;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.internal.EventsPublished;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.OnceTracing;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the outbox relay, when the application has at least one {@link
 * OutboxHandler} or {@link InboxConsumer} bean (or publishes event types) and {@code
 * once.outbox.relay.enabled} is not false; started with the context unless {@code
 * once.outbox.relay.auto-start} is false (tests then tick it with {@link OutboxRelay#runOnce()}).
 * Every {@link RelayListener} bean hears the relay, each on its own. Ordered after the typed
 * events' auto-configuration, whose {@code @OnceListener} consumers count for its condition.
 */
@AutoConfiguration(
    after = OnceAutoConfiguration.class,
    // By name: dev.once.spring.events uses this package (TransactionalOutbox), not the reverse.
    afterName = "dev.once.spring.events.OnceEventsAutoConfiguration")
@ConditionalOnBean({DataSource.class, OnceProperties.class})
@Conditional(OnceRelayAutoConfiguration.RelayNeeded.class)
@ConditionalOnBooleanProperty(name = "once.outbox.relay.enabled", matchIfMissing = true)
public final class OnceRelayAutoConfiguration {

  @Bean
  RelayPool onceRelayPool(DataSource dataSource, OnceProperties properties) {
    return RelayPool.of(dataSource, properties.outbox().relay().poolSize());
  }

  /**
   * Routes the relay handlers' transactions to the relay's pool, when it has one: wraps the
   * application's {@code dataSource} bean (a static method: it runs before other beans exist).
   */
  @Bean
  static BeanPostProcessor onceRelayDataSourceRouting(Environment environment) {
    int poolSize =
        Binder.get(environment)
            .bind("once.outbox.relay.pool-size", Integer.class)
            .orElse(OnceProperties.Relay.DEFAULT_POOL_SIZE);
    return poolSize > 0 ? new RelayDataSourceRouting() : new BeanPostProcessor() {};
  }

  @Bean
  OutboxRelay onceOutboxRelay(
      OnceProperties properties,
      ListableBeanFactory beans,
      RelayPool pool,
      ObjectProvider<OutboxStore> store,
      ObjectProvider<EventTransport> transport,
      ObjectProvider<RelayListener> listener,
      ObjectProvider<OnceTracing> tracing,
      OnceThreads threads) {
    EventTransport events = transport.getIfAvailable();
    if (events == null && beans.getBeanNamesForType(InboxConsumer.class).length > 0) {
      throw new IllegalStateException(
          "InboxConsumer beans need a PlatformTransactionManager on the application's"
              + " DataSource, to apply each event in a transaction with its inbox record.");
    }
    return OutboxRelays.build(
        properties.outbox().relay(),
        () ->
            pool.own()
                ? OnceOutboxAutoConfiguration.store(
                    pool.dataSource(), properties.outbox().archive())
                : store.getObject(),
        beans.getBeansOfType(OutboxHandler.class),
        events,
        // Only for what is local to this process (purge cadence, throttled warnings, latencies):
        // every time instances compare is the database's.
        Clock.systemUTC(),
        RelayListeners.of(listener.orderedStream().toList()),
        tracing.getIfAvailable(() -> OnceTracing.NONE),
        threads);
  }

  @Bean
  OutboxRelayLifecycle onceOutboxRelayLifecycle(OutboxRelay relay, OnceProperties properties) {
    return new OutboxRelayLifecycle(relay, properties.outbox().relay().autoStart());
  }

  /** The relay's health indicator, with Spring Boot's health support on the classpath. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class RelayHealthConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "onceRelayHealthIndicator")
    RelayHealth onceRelayHealthIndicator(
        OutboxRelay relay, ObjectProvider<OutboxAdmin> admin, OnceProperties properties) {
      return new RelayHealth(
          relay, admin.getObject(), properties.outbox().relay().healthMaxDueAge());
    }
  }

  /**
   * At least one handler or consumer bean, or a published event type: something for the relay to
   * deliver (rows of a published type with no consumer are marked delivered at once).
   */
  static final class RelayNeeded extends AnyNestedCondition {
    RelayNeeded() {
      super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnBean(OutboxHandler.class)
    static final class Handlers {}

    @ConditionalOnBean(InboxConsumer.class)
    static final class Consumers {}

    @Conditional(EventsPublished.class)
    static final class Events {}
  }
}
