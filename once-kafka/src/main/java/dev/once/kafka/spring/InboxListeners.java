package dev.once.kafka.spring;

import dev.once.failures.TransientFailures;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.kafka.EventTopics;
import dev.once.kafka.InboxRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareMessageListener;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * One Kafka listener container per inbox consumer: the consumer is a consumer group (its name after
 * the group prefix) on the topics of its types, so the instances of an application split its
 * partitions between them, and each consumer reads every event, apart from the others.
 *
 * <p>Guarantees: a record's offset is committed only after its inbox transaction committed (every
 * {@code commit-interval}, ack mode {@code TIME}, or after each poll, {@code BATCH}: the offsets of
 * the records applied, or given up and dead-lettered, so far; and at a rebalance or a stop), so a
 * crash, a kill or a rebalance between the two redelivers records that the inbox then finds
 * applied: each effect once (G2). A record's transaction commits without waiting for the WAL flush,
 * so it holds its row locks only while it runs; the consumer waits for a WAL flush before it
 * commits offsets ({@link DurableOffsets}), so no offset is committed before its record's effect is
 * durable. Records of one partition are applied one at a time, in offset order; a failing record is
 * retried before the records after it ({@link ConsumerErrors}).
 */
final class InboxListeners implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(InboxListeners.class);

  private final List<ConcurrentMessageListenerContainer<String, String>> containers =
      new ArrayList<>();
  private volatile boolean running;

  InboxListeners(
      Inbox inbox,
      List<InboxConsumer> consumers,
      EventTopics topics,
      KafkaClients clients,
      OnceKafkaProperties settings,
      String groupPrefix,
      TransportMeters meters,
      List<InboxListenerCustomizer> customizers) {
    for (InboxConsumer consumer : consumers) {
      containers.add(
          container(
              new InboxRecords(inbox, consumer, true),
              topics,
              clients,
              settings,
              groupPrefix,
              meters,
              customizers));
    }
  }

  private static ConcurrentMessageListenerContainer<String, String> container(
      InboxRecords records,
      EventTopics topics,
      KafkaClients clients,
      OnceKafkaProperties settings,
      String groupPrefix,
      TransportMeters meters,
      List<InboxListenerCustomizer> customizers) {
    InboxConsumer consumer = records.consumer();
    String name = consumer.name();
    ConsumerLag lag = new ConsumerLag();
    meters.lag(name, lag::records);
    ContainerProperties properties =
        new ContainerProperties(topics.topicsOf(consumer.types()).toArray(String[]::new));
    properties.setGroupId(groupPrefix + name);
    properties.setClientId("once-" + name);
    Duration commitInterval = settings.getConsumer().getCommitInterval();
    if (commitInterval.isZero()) {
      properties.setAckMode(ContainerProperties.AckMode.BATCH);
    } else {
      // Commits what was applied once the interval has passed, checked after each poll's records:
      // one offset commit (and one WAL flush) per interval, not per poll, which under a trickle
      // of records is one per record.
      properties.setAckMode(ContainerProperties.AckMode.TIME);
      properties.setAckTime(commitInterval.toMillis());
    }
    properties.setMessageListener(
        (ConsumerAwareMessageListener<String, String>)
            (record, client) -> {
              InboxRecords.Outcome outcome;
              lag.handling(record, client);
              try {
                outcome = records.apply(record);
              } catch (Exception e) {
                if (TransientFailures.isTransient(e)) {
                  // A class of its own: the error handler starts a record's count and backoff
                  // again only when the class of its failure changes. Both as
                  // InboxDeliveryException, a record that failed for good once and then in an
                  // outage was dead-lettered during the outage, and one that failed in an outage
                  // and then for good was retried without limit, blocking its partition.
                  throw new TransientInboxException(name, e);
                }
                if (e instanceof RuntimeException runtime) {
                  throw runtime;
                }
                throw new InboxDeliveryException(name, e);
              }
              if (outcome != InboxRecords.Outcome.SKIPPED) {
                meters.consumed(name, outcome == InboxRecords.Outcome.DUPLICATE);
              }
              lag.handled(record, client);
            });
    properties.setConsumerRebalanceListener(
        new ConsumerAwareRebalanceListener() {
          @Override
          public void onPartitionsRevokedAfterCommit(
              Consumer<?, ?> client, Collection<TopicPartition> partitions) {
            lag.revoked(partitions);
          }

          @Override
          public void onPartitionsLost(
              Consumer<?, ?> client, Collection<TopicPartition> partitions) {
            lag.revoked(partitions);
          }
        });
    ConcurrentMessageListenerContainer<String, String> container =
        new ConcurrentMessageListenerContainer<>(clients.consumers(), properties);
    container.setConcurrency(settings.getConsumer().getConcurrency());
    container.setBeanName("once-kafka-" + name);
    container.setCommonErrorHandler(
        ConsumerErrors.handler(
            name, topics, clients.template(), settings.getConsumer(), meters, lag));
    customizers.forEach(customizer -> customizer.customize(consumer, container));
    return container;
  }

  /** The containers, one per consumer, in the consumers' order. */
  List<ConcurrentMessageListenerContainer<String, String>> containers() {
    return List.copyOf(containers);
  }

  @Override
  public void start() {
    for (ConcurrentMessageListenerContainer<String, String> container : containers) {
      container.start();
      log.info(
          "Inbox consumer {} reads {} as Kafka consumer group {}",
          container.getBeanName().substring("once-kafka-".length()),
          List.of(container.getContainerProperties().getTopics()),
          container.getContainerProperties().getGroupId());
    }
    running = true;
  }

  @Override
  public void stop() {
    containers.forEach(ConcurrentMessageListenerContainer::stop);
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
