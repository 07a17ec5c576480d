package dev.once.spring.outbox;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.inbox.InboxConsumer;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStore;
import dev.once.postgres.OutboxArchive;
import dev.once.postgres.PostgresStores;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.OnceTracing;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * Auto-configuration of the outbox: its store and admin, the {@link TransactionalOutbox}
 * applications inject, the relay's wake-up after commit and load shedding. The relay itself is
 * {@link OnceRelayAutoConfiguration}'s. The consumers and transports that decide which event types
 * are written are read on first use, when every bean exists, so this needs no order among Once's
 * other auto-configurations.
 */
@AutoConfiguration(after = OnceAutoConfiguration.class)
@ConditionalOnBean({DataSource.class, OnceProperties.class})
public final class OnceOutboxAutoConfiguration {

  /**
   * The outbox's storage; made after Once's migration (dev.once.spring.OnceSchemaInitialization).
   */
  @Bean
  @ConditionalOnMissingBean
  OutboxStore onceOutboxStore(DataSource dataSource, OnceProperties properties) {
    return store(dataSource, properties.outbox().archive());
  }

  /** The PostgreSQL store on {@code dataSource}, in archive mode when the archive is on. */
  static OutboxStore store(DataSource dataSource, OnceProperties.Archive archive) {
    OutboxArchive mode = archive.mode();
    return mode == null
        ? PostgresStores.outboxStore(dataSource)
        : PostgresStores.outboxStore(dataSource, mode);
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
      OnceProperties properties, ObjectProvider<OutboxAdmin> admin, OnceThreads threads) {
    OnceProperties.LoadShedding shedding = properties.outbox().loadShedding();
    return shedding.enabled()
        ? new OutboxLoadShedding(
            admin.getObject(), shedding.maxDueAge(), shedding.sampleInterval(), threads)
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
      OutboxLoadShedding shedding,
      ObjectProvider<OnceTracing> tracing) {
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
        Outbox.of(store),
        dataSource,
        wakeUp,
        type -> consumedTypes.get().contains(type),
        shedding,
        tracing.getIfAvailable(() -> OnceTracing.NONE));
  }
}
