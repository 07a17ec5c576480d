package dev.once.spring.events;

import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.outbox.TransactionalOutbox;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of typed events, when Jackson 3 is present: the {@link OnceEvents} publisher,
 * the {@code EventCodec} on the application's {@link JsonMapper} bean (a default one without it)
 * and the {@link EventUpcaster} beans, the {@link OnceListener} consumers ({@code
 * OnceListenerRegistrar}), and the {@link PublishedEventTypes} found in the application's packages.
 * Ordered before the inbox's and the relay's auto-configurations ({@code
 * OnceInboxAutoConfiguration}, {@code OnceRelayAutoConfiguration}), whose conditions must see the
 * listeners' consumers.
 */
@AutoConfiguration(after = OnceAutoConfiguration.class)
@ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
@ConditionalOnBean({DataSource.class, OnceProperties.class})
@Import(OnceListenerRegistrar.class)
public final class OnceEventsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  EventCodec onceEventCodec(
      ObjectProvider<JsonMapper> json, ObjectProvider<EventUpcaster> upcasters) {
    return new EventCodec(
        json.getIfAvailable(() -> JsonMapper.builder().build()),
        EventUpcasters.of(upcasters.orderedStream().toList()));
  }

  @Bean
  @ConditionalOnMissingBean
  OnceEvents onceEvents(TransactionalOutbox outbox, EventCodec codec) {
    return new OnceEvents(outbox, codec);
  }

  /** Fails the start on listener methods that were not registered. */
  @Bean
  static UnregisteredListeners onceUnregisteredListeners(ConfigurableListableBeanFactory beans) {
    return new UnregisteredListeners(beans);
  }

  @Bean
  @ConditionalOnMissingBean
  PublishedEventTypes oncePublishedEventTypes(
      BeanFactory beans, Environment environment, ResourceLoader resources) {
    List<String> packages =
        AutoConfigurationPackages.has(beans) ? AutoConfigurationPackages.get(beans) : List.of();
    return PublishedEventTypes.scan(packages, environment, resources);
  }
}
