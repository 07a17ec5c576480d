package dev.once.kafka.spring;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.kafka.EventTopics;
import dev.once.kafka.InboxRecords;
import dev.once.postgres.TransientFailures;
import dev.once.postgres.WalFlush;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.BatchConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * One Kafka listener container per inbox consumer: the consumer is a consumer group (its name after
 * the group prefix) on the topics of its types, so the instances of an application split its
 * partitions between them, and each consumer reads every event, apart from the others.
 *
 * <p>Guarantees: a record's offset is committed only after its inbox transaction committed and is
 * durable, so a crash, a kill or a rebalance between the two redelivers records that the inbox then
 * finds applied: each effect once (G2). Each record is applied in a transaction of its own that
 * commits without waiting for the WAL flush; after the records of a poll (or before a failed one),
 * one {@link WalFlush} makes them all durable, and only then are their offsets committed: one WAL
 * flush per poll, not per record. Records of one partition are applied one at a time, in offset
 * order; a failing record is retried before the records after it, the records before it committed
 * ({@link ConsumerErrors}).
 */
final class InboxListeners implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(InboxListeners.class);

  private final List<ConcurrentMessageListenerContainer<String, String>> containers =
      new ArrayList<>();
  private volatile boolean running;

  InboxListeners(
      Inbox inbox,
      WalFlush durable,
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
              durable,
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
      WalFlush durable,
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
    properties.setAckMode(ContainerProperties.AckMode.BATCH);
    properties.setMessageListener(
        (BatchConsumerAwareMessageListener<String, String>)
            (batch, client) -> {
              for (int i = 0; i < batch.size(); i++) {
                ConsumerRecord<String, String> record = batch.get(i);
                InboxRecords.Outcome outcome;
                try {
                  outcome = records.apply(record);
                } catch (Exception e) {
                  // The records before it are applied: durable before their offsets commit.
                  int committable = flushed(durable) ? i : 0;
                  throw new BatchListenerFailedException(
                      "inbox consumer " + name + " failed", e, committable);
                }
                if (outcome != InboxRecords.Outcome.SKIPPED) {
                  meters.consumed(name, outcome == InboxRecords.Outcome.DUPLICATE);
                }
                lag.handled(record, client);
              }
              if (!flushed(durable)) {
                throw new BatchListenerFailedException(
                    "inbox consumer " + name + " could not make its effects durable",
                    new IllegalStateException("the WAL flush failed"),
                    0);
              }
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
        ConsumerErrors.handler(name, topics, clients.template(), settings.getConsumer(), meters));
    customizers.forEach(customizer -> customizer.customize(consumer, container));
    return container;
  }

  /**
   * Whether every transaction committed so far is durable; a failure is logged and the batch is
   * retried from its first record (the inbox finds those applied).
   */
  private static boolean flushed(WalFlush durable) {
    try {
      durable.awaitDurable();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (SQLException e) {
      log.warn(
          "Could not flush the database's WAL before committing offsets ({}); the records are"
              + " delivered again",
          TransientFailures.condition(e));
      return false;
    }
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
