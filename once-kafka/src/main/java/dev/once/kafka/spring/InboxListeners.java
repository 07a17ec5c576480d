package dev.once.kafka.spring;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.kafka.EventTopics;
import dev.once.kafka.InboxRecords;
import dev.once.spring.internal.OnceThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * One Kafka listener container per inbox consumer: the consumer is a consumer group (its name after
 * the group prefix) on the topics of its types, so the instances of an application split its
 * partitions between them, and each consumer reads every event, apart from the others.
 *
 * <p>Each container is a batch listener ({@link PartitionBatches}) that gets a poll's records one
 * partition at a time: a {@code BatchInboxConsumer} (every {@code @OnceListener} consumer unless
 * {@code batch = false}) applies a partition's records of one poll in ONE database transaction,
 * other consumers one record per transaction. A batch that fails is rolled back and applied record
 * by record, so only the failing record fails: it is retried alone, before the records after it,
 * and dead-lettered alone ({@link ConsumerErrors}). With {@code once.kafka.consumer.key-lanes}
 * above 1, a partition's records of a poll are split by key into lanes applied concurrently, each
 * as one batch ({@link PartitionBatches}).
 *
 * <p>Guarantees: a record's offset is committed only after its inbox transaction committed (every
 * {@code commit-interval}, ack mode {@code TIME}, or after each partition's records of a poll,
 * {@code BATCH}: the offsets of the records applied, or given up and dead-lettered, so far; before
 * a failed record, by the error handler; and at a rebalance or a stop), so a crash, a kill or a
 * rebalance between the two redelivers records that the inbox then finds applied: each effect once
 * (G2). A transaction commits without waiting for the WAL flush, so it holds its row locks only
 * while it runs; the consumer waits for a WAL flush before it commits offsets ({@link
 * DurableOffsets}), so no offset is committed before its records' effects are durable. Records of
 * one partition are applied in offset order; a failing record is retried before the records after
 * it. An {@link InboxListenerCustomizer} that sets a {@code RecordInterceptor} (never called by a
 * batch listener) is refused at start: a {@code BatchInterceptor} sees the records.
 *
 * <p>The containers come from a {@link ConcurrentKafkaListenerContainerFactory} that Spring Boot's
 * {@link ConcurrentKafkaListenerContainerFactoryConfigurer} configured, as it configures the
 * application's own, so {@code spring.kafka.listener.*} applies to them (poll timeout, idle
 * intervals, monitor interval, container logging, observation, immediate stop, ...). Once then sets
 * what its guarantees rest on, whatever those properties and the application's beans say: the group
 * and client ids, the ack mode and ack time (from {@code once.kafka.consumer.commit-interval}), the
 * concurrency ({@code once.kafka.consumer.concurrency}), a batch listener dispatched per partition,
 * its error handler and rebalance listener, and no Kafka transaction, record interceptor, batch
 * interceptor or record filter of the application's (an {@link InboxListenerCustomizer} may add a
 * batch interceptor).
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
      ConcurrentKafkaListenerContainerFactory<String, String> factory,
      KafkaClients clients,
      OnceKafkaProperties settings,
      String groupPrefix,
      TransportMeters meters,
      List<InboxListenerCustomizer> customizers,
      OnceThreads threads) {
    for (InboxConsumer consumer : consumers) {
      containers.add(
          container(
              new InboxRecords(inbox, consumer, true),
              topics,
              factory,
              clients,
              settings,
              groupPrefix,
              meters,
              customizers,
              threads));
    }
  }

  /**
   * The factory of the inbox listeners' containers: configured by Spring Boot's {@code
   * spring.kafka.listener.*} when {@code configurer} is there, on Once's consumer factory, and
   * cleared of what the application's beans would add that Once's guarantees do not allow.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static ConcurrentKafkaListenerContainerFactory<String, String> factory(
      ConcurrentKafkaListenerContainerFactoryConfigurer configurer, KafkaClients clients) {
    ConcurrentKafkaListenerContainerFactory factory = new ConcurrentKafkaListenerContainerFactory();
    if (configurer != null) {
      configurer.configure(factory, (ConsumerFactory) clients.consumers());
    }
    factory.setConsumerFactory(clients.consumers());
    factory.setBatchListener(true);
    factory.setCommonErrorHandler(null);
    factory.setRecordInterceptor(null);
    factory.setBatchInterceptor(null);
    factory.setRecordFilterStrategy(null);
    factory.setReplyTemplate(null);
    factory.setAfterRollbackProcessor(null);
    ContainerProperties properties = factory.getContainerProperties();
    properties.setKafkaAwareTransactionManager(null);
    properties.setTransactionManager(null);
    properties.setConsumerRebalanceListener(null);
    return factory;
  }

  private static ConcurrentMessageListenerContainer<String, String> container(
      InboxRecords records,
      EventTopics topics,
      ConcurrentKafkaListenerContainerFactory<String, String> factory,
      KafkaClients clients,
      OnceKafkaProperties settings,
      String groupPrefix,
      TransportMeters meters,
      List<InboxListenerCustomizer> customizers,
      OnceThreads threads) {
    InboxConsumer consumer = records.consumer();
    String name = consumer.name();
    ConsumerLag lag = new ConsumerLag();
    meters.lag(name, lag::records);
    ConcurrentMessageListenerContainer<String, String> container =
        factory.createContainer(topics.topicsOf(consumer.types()).toArray(String[]::new));
    ContainerProperties properties = container.getContainerProperties();
    properties.setGroupId(groupPrefix + name);
    properties.setClientId("once-" + name);
    // With spring.threads.virtual.enabled, each consumer polls on a virtual thread, as Boot's own
    // listener containers do.
    threads.executor("once-kafka-" + name + "-").ifPresent(properties::setListenerTaskExecutor);
    Duration commitInterval = settings.consumer().commitInterval();
    if (commitInterval.isZero()) {
      properties.setAckMode(ContainerProperties.AckMode.BATCH);
    } else {
      // Commits what was applied once the interval has passed, checked after each poll's records:
      // one offset commit (and one WAL flush) per interval, not per poll, which under a trickle
      // of records is one per record.
      properties.setAckMode(ContainerProperties.AckMode.TIME);
      properties.setAckTime(commitInterval.toMillis());
    }
    // Acknowledgements are the container's, in order (spring.kafka.listener.async-acks is for
    // manual acks, which Once never uses).
    properties.setAsyncAcks(false);
    // One call per partition of a poll: a partition's records are one batch, one transaction.
    properties.setSubBatchPerPartition(true);
    int lanes = settings.consumer().keyLanes();
    PartitionBatches listener =
        new PartitionBatches(
            records,
            meters,
            lag,
            lanes,
            laneExecutor(name, lanes, settings.consumer().concurrency(), threads));
    properties.setMessageListener(listener);
    properties.setConsumerRebalanceListener(
        new ConsumerAwareRebalanceListener() {
          @Override
          public void onPartitionsRevokedAfterCommit(
              Consumer<?, ?> client, Collection<TopicPartition> partitions) {
            lag.revoked(partitions);
            listener.revoked(partitions);
          }

          @Override
          public void onPartitionsLost(
              Consumer<?, ?> client, Collection<TopicPartition> partitions) {
            lag.revoked(partitions);
            listener.revoked(partitions);
          }
        });
    container.setConcurrency(settings.consumer().concurrency());
    container.setBeanName("once-kafka-" + name);
    container.setCommonErrorHandler(
        ConsumerErrors.handler(name, topics, clients.template(), settings.consumer(), meters, lag));
    customizers.forEach(customizer -> customizer.customize(consumer, container));
    if (container.getRecordInterceptor() != null) {
      throw new IllegalStateException(
          "An InboxListenerCustomizer set a RecordInterceptor on the listener container of inbox"
              + " consumer "
              + name
              + ", which is a batch listener and would never call it: set a BatchInterceptor"
              + " instead.");
    }
    return container;
  }

  /**
   * Runs the lanes of {@code consumer}'s listeners after each one's first: a virtual thread per
   * lane with virtual threads on, else a pool of {@code concurrency * (lanes - 1)} daemon threads,
   * which is what they use at most (each listener waits for its lanes) and which end after 10 s
   * idle, so the pool needs no shutdown. Lanes never wait for a thread behind other lanes.
   */
  private static Executor laneExecutor(
      String consumer, int lanes, int concurrency, OnceThreads threads) {
    if (lanes == 1) {
      return Runnable::run;
    }
    String prefix = "once-kafka-" + consumer + "-lane-";
    Optional<AsyncTaskExecutor> virtual = threads.executor(prefix);
    if (virtual.isPresent()) {
      return virtual.get();
    }
    int size = concurrency * (lanes - 1);
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            size,
            size,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = threads.factory().newThread(task);
              thread.setName(prefix + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
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
