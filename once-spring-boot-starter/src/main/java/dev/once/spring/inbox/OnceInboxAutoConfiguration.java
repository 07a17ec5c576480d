package dev.once.spring.inbox;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxStore;
import dev.once.postgres.PostgresStores;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.events.OnceEventsAutoConfiguration;
import dev.once.spring.events.PublishedEventTypes;
import dev.once.spring.internal.EventsPublished;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.OnceTracing;
import dev.once.spring.internal.SameDataSource;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Auto-configuration of the inbox, with consumers' transactions on the application's transaction
 * manager, the in-process event transport over every {@link InboxConsumer} bean (unless another
 * {@link EventTransport} bean takes the events, as {@code once-kafka}'s does), and the purge of old
 * records. Ordered after the typed events' auto-configuration, whose {@code @OnceListener}
 * consumers count for the transport's condition; {@code once-kafka}'s auto-configuration, whose
 * transport this one's steps aside for, is ordered before it.
 */
@AutoConfiguration(after = {OnceAutoConfiguration.class, OnceEventsAutoConfiguration.class})
@ConditionalOnBean({DataSource.class, PlatformTransactionManager.class, OnceProperties.class})
public final class OnceInboxAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  InboxStore onceInboxStore(DataSource dataSource) {
    return PostgresStores.inboxStore(dataSource);
  }

  @Bean
  @ConditionalOnMissingBean
  Inbox onceInbox(
      InboxStore store,
      PlatformTransactionManager transactions,
      DataSource dataSource,
      ObjectProvider<InboxDuplicates> duplicates,
      ObjectProvider<OnceTracing> tracing) {
    SameDataSource.require(
        transactions,
        dataSource,
        "the inbox, so that a consumer's writes and its inbox record share one transaction");
    Inbox inbox = Inbox.of(store, new SpringTransactions(transactions, dataSource));
    // Outside the duplicates' count, so that the consumer span covers all of the delivery.
    return tracing
        .getIfAvailable(() -> OnceTracing.NONE)
        .traced(new ObservedInbox(inbox, duplicates.getIfAvailable(() -> InboxDuplicates.NONE)));
  }

  /**
   * The in-process transport, unless the application (or {@code once-kafka}) has an event transport
   * of its own; for the consumers, and for the published types: {@code once.outbox.events} and the
   * {@code @OnceEvent} records of the application ({@link PublishedEventTypes}).
   */
  @Bean
  @ConditionalOnMissingBean(EventTransport.class)
  @Conditional(TransportNeeded.class)
  InProcessEventTransport onceInProcessEventTransport(
      Inbox inbox,
      ObjectProvider<InboxConsumer> consumers,
      OnceProperties properties,
      ObjectProvider<PublishedEventTypes> typed) {
    Set<String> published = new TreeSet<>(EventsPublished.names(properties.outbox().events()));
    typed.ifAvailable(types -> published.addAll(types.names()));
    return InProcessEventTransport.of(inbox, consumers.orderedStream().toList(), published);
  }

  /** Inbox consumer beans, or published event types ({@code once.outbox.events}). */
  static final class TransportNeeded extends AnyNestedCondition {
    TransportNeeded() {
      super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnBean(InboxConsumer.class)
    static final class Consumers {}

    @Conditional(EventsPublished.class)
    static final class Events {}
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "once.inbox.purge.enabled", matchIfMissing = true)
  InboxPurger onceInboxPurger(Inbox inbox, OnceProperties properties, OnceThreads threads) {
    OnceProperties.Inbox settings = properties.inbox();
    return new InboxPurger(
        inbox,
        settings.retention(),
        settings.purge().interval(),
        settings.purge().batchSize(),
        settings.purge().maxRunTime(),
        threads);
  }
}
