package dev.once.kafka.spring;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.kafka.EventTopics;
import dev.once.kafka.KafkaEventPublisher;
import dev.once.postgres.WalFlush;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.events.PublishedEventTypes;
import dev.once.spring.inbox.OnceInboxAutoConfiguration;
import dev.once.spring.internal.EventsPublished;
import dev.once.spring.internal.OnceThreads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Kafka as Once's event transport, when {@code spring.kafka.bootstrap-servers} is set and {@code
 * once.kafka.enabled} is not false ({@link KafkaTransportEnabled}): the relay publishes the rows of
 * event types (those the {@code InboxConsumer} beans take, including {@code @OnceListener} methods,
 * the application's {@code @OnceEvent} records, and {@code once.outbox.events}) to Kafka with
 * {@link KafkaEventPublisher}, in place of the in-process transport, and every {@code
 * InboxConsumer} bean reads its types from Kafka as a consumer group ({@link InboxListeners}),
 * through the inbox. Without a broker configured, the starter's in-process transport stays.
 */
@AutoConfiguration(
    // Before every Once auto-configuration (they are all ordered after OnceAutoConfiguration), and
    // explicitly before the inbox's: its in-process transport steps aside for this one's publisher
    // (@ConditionalOnMissingBean(EventTransport.class)). No other condition of Once's reads a bean
    // of this configuration.
    before = {OnceAutoConfiguration.class, OnceInboxAutoConfiguration.class},
    after = KafkaAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.kafka.listener.ConcurrentMessageListenerContainer")
@Conditional(KafkaTransportEnabled.class)
@EnableConfigurationProperties({OnceKafkaProperties.class, KafkaProperties.class})
public class OnceKafkaAutoConfiguration {

  @Bean
  EventTopics onceEventTopics(OnceKafkaProperties settings, Environment environment) {
    OnceKafkaProperties.refuseRenamed(environment);
    try {
      return EventTopics.of(settings.topics(), settings.deadLetterSuffix());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Invalid configuration: " + e.getMessage(), e);
    }
  }

  @Bean
  KafkaClients onceKafkaClients(
      KafkaProperties kafka, OnceKafkaProperties settings, WalFlush durable) {
    return new KafkaClients(kafka, settings, durable);
  }

  /**
   * The event types this application publishes: those its consumers take, the listed ones, and its
   * {@code @OnceEvent} records' ({@link PublishedEventTypes}).
   */
  static Set<String> publishedTypes(
      List<InboxConsumer> consumers,
      OnceProperties properties,
      ObjectProvider<PublishedEventTypes> typed) {
    Set<String> types = new TreeSet<>();
    consumers.forEach(consumer -> types.addAll(consumer.types()));
    typed.ifAvailable(published -> types.addAll(published.names()));
    types.addAll(EventsPublished.names(properties.outbox().events()));
    return types;
  }

  @Bean
  OnceKafkaTopics onceKafkaTopics(
      KafkaProperties kafka,
      OnceKafkaProperties settings,
      EventTopics topics,
      ObjectProvider<InboxConsumer> consumers,
      OnceProperties properties,
      ObjectProvider<PublishedEventTypes> typed) {
    List<InboxConsumer> all = consumers.orderedStream().toList();
    Set<String> names =
        new LinkedHashSet<>(topics.topicsOf(publishedTypes(all, properties, typed)));
    if (settings.consumer().enabled()) {
      for (InboxConsumer consumer : all) {
        for (String topic : topics.topicsOf(consumer.types())) {
          names.add(topic);
          names.add(topics.deadLetterTopicOf(topic));
        }
      }
    }
    return new OnceKafkaTopics(kafka.buildAdminProperties(), names, settings.topic());
  }

  /**
   * Waited for by the publisher, since settlements and in-process consumers may commit without
   * waiting for the WAL flush (once.outbox.relay.async-completions) and nothing of theirs may reach
   * Kafka before it is durable; and by the listeners' consumers before they commit offsets, as
   * their records' transactions commit without waiting ({@link DurableOffsets}).
   */
  @Bean
  WalFlush onceKafkaWalFlush(DataSource dataSource) {
    return WalFlush.on(dataSource);
  }

  @Bean
  @ConditionalOnMissingBean
  TransportMeters onceKafkaMeters(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry meters = registry.getIfAvailable();
    return meters == null ? TransportMeters.NONE : new MicrometerTransportMeters(meters);
  }

  @Bean
  KafkaEventPublisher onceKafkaEventPublisher(
      KafkaClients clients,
      EventTopics topics,
      OnceKafkaTopics created,
      ObjectProvider<InboxConsumer> consumers,
      OnceProperties properties,
      OnceKafkaProperties settings,
      TransportMeters meters,
      WalFlush durable,
      ObjectProvider<PublishedEventTypes> typed) {
    Set<String> types = publishedTypes(consumers.orderedStream().toList(), properties, typed);
    Duration send = settings.producer().sendTimeout();
    OnceProperties.Relay relay = properties.outbox().relay();
    for (String type : types) {
      OnceProperties.Retry retry = relay.types().get(type);
      Duration timeout =
          retry != null && retry.handlerTimeout() != null
              ? retry.handlerTimeout()
              : relay.handlerTimeout();
      if (send.compareTo(timeout) >= 0) {
        throw new IllegalStateException(
            "Invalid configuration: once.kafka.producer.send-timeout ("
                + send
                + ") must be shorter than the relay's handler-timeout for "
                + type
                + " ("
                + timeout
                + "), so that a slow broker ends as a retry, not as the relay cutting the send"
                + " off.");
      }
    }
    return new KafkaEventPublisher(
        clients.producers().createProducer(), topics, types, send, meters.publishing(), durable);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "once.kafka.consumer.enabled", matchIfMissing = true)
  static class ListenersConfiguration {
    @Bean
    InboxListeners onceKafkaInboxListeners(
        ObjectProvider<Inbox> inbox,
        ObjectProvider<InboxConsumer> consumers,
        EventTopics topics,
        KafkaClients clients,
        OnceKafkaTopics created,
        OnceKafkaProperties settings,
        TransportMeters meters,
        ObjectProvider<InboxListenerCustomizer> customizers,
        ObjectProvider<ConcurrentKafkaListenerContainerFactoryConfigurer> configurer,
        Environment environment,
        OnceThreads threads) {
      List<InboxConsumer> all = consumers.orderedStream().toList();
      Inbox theInbox = inbox.getIfAvailable();
      if (theInbox == null && !all.isEmpty()) {
        throw new IllegalStateException(
            "InboxConsumer beans need a PlatformTransactionManager on the application's"
                + " DataSource, to apply each event in a transaction with its inbox record.");
      }
      return new InboxListeners(
          theInbox,
          all,
          topics,
          InboxListeners.factory(configurer.getIfAvailable(), clients),
          clients,
          settings,
          groupPrefix(settings, environment),
          meters,
          customizers.orderedStream().toList(),
          threads);
    }
  }

  /** {@code once.kafka.consumer.group-prefix}, or the application's name and a dot. */
  static String groupPrefix(OnceKafkaProperties settings, Environment environment) {
    String prefix = settings.consumer().groupPrefix();
    if (prefix != null && !prefix.isEmpty()) {
      return prefix;
    }
    String application = environment.getProperty("spring.application.name", "");
    return application.isBlank() ? "" : application.trim() + ".";
  }
}
