package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.kafka.EventTopics;
import dev.once.kafka.KafkaEventPublisher;
import dev.once.kafka.TestBroker;
import dev.once.testing.TestDatabase;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.util.backoff.FixedBackOff;

/**
 * When the Kafka transport is on (bootstrap servers set, not disabled) and when it stays off, what
 * it publishes, and that a configuration contradicting its guarantees or out of range fails the
 * start with a message naming the property; the group ids and the producer settings it derives.
 * Only the group-id tests connect to the broker; the others name an address nothing listens on and
 * create no topics.
 */
@Timeout(120)
class KafkaConfigurationTest {
  /** Nothing listens there: the contexts that start must not need a broker to. */
  private static final String NO_BROKER = "localhost:1";

  /** {@link KafkaTransportTest#app} without any spring.kafka.bootstrap-servers. */
  private static ApplicationContextRunner withoutServers(String run) {
    return new ApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                KafkaAutoConfiguration.class))
        .withUserConfiguration(KafkaTestApplication.class)
        .withPropertyValues(
            "spring.datasource.url=" + TestDatabase.jdbcUrl(),
            "spring.datasource.username=postgres",
            "spring.datasource.password=postgres",
            "test.run=" + run,
            "once.outbox.relay.poll-interval=1h");
  }

  /** Servers set, but nothing connects: no topics created, no listeners. */
  private static ApplicationContextRunner offline(String run) {
    return withoutServers(run)
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=" + NO_BROKER,
            "once.kafka.topic.create=false",
            "once.kafka.consumer.enabled=false");
  }

  private static void inProcessOnly(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    assertThat(context.getBean(EventTransport.class)).isInstanceOf(InProcessEventTransport.class);
    assertThat(context).doesNotHaveBean(KafkaEventPublisher.class);
    assertThat(context).doesNotHaveBean(EventTopics.class);
    assertThat(context).doesNotHaveBean(KafkaClients.class);
    assertThat(context).doesNotHaveBean(OnceKafkaTopics.class);
    assertThat(context).doesNotHaveBean(InboxListeners.class);
  }

  @Test
  void withoutBootstrapServersTheInProcessTransportStays() {
    // The test broker publishes its address as the system property
    // spring.kafka.bootstrap-servers; an application without a broker has none.
    String servers = System.clearProperty("spring.kafka.bootstrap-servers");
    try {
      withoutServers(TestBroker.run()).run(KafkaConfigurationTest::inProcessOnly);
    } finally {
      if (servers != null) {
        System.setProperty("spring.kafka.bootstrap-servers", servers);
      }
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"spring.kafka.bootstrap-servers=", "'spring.kafka.bootstrap-servers= , '"})
  void withBlankBootstrapServersTheInProcessTransportStays(String servers) {
    withoutServers(TestBroker.run())
        .withPropertyValues(servers)
        .run(KafkaConfigurationTest::inProcessOnly);
  }

  @Test
  void disabledTheInProcessTransportStaysEvenWithServers() {
    withoutServers(TestBroker.run())
        .withPropertyValues(
            "spring.kafka.bootstrap-servers=" + TestBroker.servers(), "once.kafka.enabled=false")
        .run(KafkaConfigurationTest::inProcessOnly);
  }

  @Test
  void withServersTheTransportIsKafkaForTheConsumersTypesAndTheListedEvents() {
    String run = TestBroker.run();
    offline(run)
        .withPropertyValues("once.outbox.events=shop.a." + run + ", shop.b." + run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(InProcessEventTransport.class);
              EventTransport transport = context.getBean(EventTransport.class);
              assertThat(transport).isInstanceOf(KafkaEventPublisher.class);
              assertThat(transport.types())
                  .containsExactlyInAnyOrder(
                      KafkaTestApplication.type(run), "shop.a." + run, "shop.b." + run);
            });
  }

  @Test
  void theProducerHasAcksAllIdempotenceAndADeliveryTimeoutWithinTheSendTimeout() {
    offline(TestBroker.run())
        .withPropertyValues(
            "once.kafka.producer.send-timeout=5s",
            "spring.kafka.producer.properties.request.timeout.ms=60000",
            "spring.kafka.producer.properties.linger.ms=20",
            "spring.kafka.producer.transaction-id-prefix=tx-")
        .run(
            context -> {
              // The context started: Kafka accepted the settings when it built the producer.
              assertThat(context).hasNotFailed();
              Map<String, Object> config =
                  context.getBean(KafkaClients.class).producers().getConfigurationProperties();
              assertThat(config.get(ProducerConfig.ACKS_CONFIG)).isEqualTo("all");
              assertThat(config.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isEqualTo(true);
              long delivery =
                  Long.parseLong(config.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG).toString());
              long request =
                  Long.parseLong(config.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG).toString());
              assertThat(delivery).isLessThanOrEqualTo(5000).isGreaterThanOrEqualTo(20 + request);
              assertThat(Long.parseLong(config.get(ProducerConfig.MAX_BLOCK_MS_CONFIG).toString()))
                  .isLessThanOrEqualTo(5000);
              assertThat(config).doesNotContainKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "spring.kafka.producer.acks=1 | spring.kafka.producer.acks=1 contradicts",
        "spring.kafka.producer.acks=0 | spring.kafka.producer.acks=0 contradicts",
        "spring.kafka.producer.properties.enable.idempotence=false"
            + " | spring.kafka.producer.properties.enable.idempotence=false contradicts",
        "once.kafka.producer.send-timeout=30s | once.kafka.producer.send-timeout (PT30S) must be"
            + " shorter than the relay's handler-timeout",
        "once.kafka.producer.send-timeout=45s | once.kafka.producer.send-timeout (PT45S)",
        "once.kafka.topics[t]=bad name | once.kafka.topics",
        "once.kafka.topic.partitions=0"
            + " | once.kafka.topic.partitions: must be 1 to 10000, but was '0'",
        "once.kafka.topic.replication-factor=33"
            + " | once.kafka.topic.replication-factor: must be 0 to 32, but was '33'",
        "once.kafka.consumer.concurrency=0 | once.kafka.consumer.concurrency: must be 1 to 100",
        "once.kafka.consumer.key-lanes=0"
            + " | once.kafka.consumer.key-lanes: must be 1 to 64, but was '0'",
        "once.kafka.consumer.key-lanes=65 | once.kafka.consumer.key-lanes: must be 1 to 64",
        "once.kafka.consumer.max-attempts=0 | once.kafka.consumer.max-attempts: must be 1 to 1000",
        "once.kafka.consumer.commit-interval=2m"
            + " | once.kafka.consumer.commit-interval: must be 0s to 1m, but was 'PT2M'",
        "once.kafka.producer.send-timeout=500ms"
            + " | once.kafka.producer.send-timeout: must be 1s to 10m, but was 'PT0.5S'",
        "once.kafka.consumer.initial-delay=0ms"
            + " | once.kafka.consumer.initial-delay: must be 1ms to 5m, but was 'PT0S'",
        "once.kafka.consumer.max-delay=10ms"
            + " | once.kafka.consumer.max-delay: must be at least the initial-delay (100ms)",
        "once.kafka.dead-letter-suffix= | once.kafka.dead-letter-suffix: must not be empty",
        "once.kafka.dead-letter-suffix=.d l t"
            + " | once.kafka.dead-letter-suffix: must be letters, digits, '.', '_' or '-',"
            + " but was '.d l t'",
        "once.kafka.consumer.initial-backoff=10ms"
            + " | once.kafka.consumer.initial-backoff is now once.kafka.consumer.initial-delay",
        "once.kafka.consumer.max-backoff=1s"
            + " | once.kafka.consumer.max-backoff is now once.kafka.consumer.max-delay",
      })
  void aContradictingOrOutOfRangeSettingFailsTheStartNamingIt(String setting, String message) {
    offline(TestBroker.run())
        .withPropertyValues(setting)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(configurationFailure(context)).contains(message);
            });
  }

  @Test
  void theSendTimeoutMustBeShorterThanATypesOwnHandlerTimeout() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    offline(run)
        .withPropertyValues(
            "once.outbox.relay.types[" + type + "].handler-timeout=5s",
            "once.kafka.producer.send-timeout=5s")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(configurationFailure(context))
                  .contains("once.kafka.producer.send-timeout (PT5S)")
                  .contains("handler-timeout for " + type + " (PT5S)");
            });
  }

  @Test
  void theGroupIdIsTheApplicationsNameAndTheConsumersName() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .withPropertyValues("spring.application.name=shop-" + run)
        .run(
            context ->
                assertThat(groupId(context))
                    .isEqualTo("shop-" + run + "." + KafkaTestApplication.consumer(run)));
  }

  @Test
  void theGroupPrefixReplacesTheApplicationsName() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .withPropertyValues(
            "spring.application.name=shop-" + run, "once.kafka.consumer.group-prefix=team-")
        .run(
            context ->
                assertThat(groupId(context))
                    .isEqualTo("team-" + KafkaTestApplication.consumer(run)));
  }

  @Test
  void withNeitherTheGroupIdIsTheConsumersName() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .run(context -> assertThat(groupId(context)).isEqualTo(KafkaTestApplication.consumer(run)));
  }

  @Test
  void springKafkaListenerSettingsApplyToTheInboxListenersExceptWhatOnceOwns() {
    String run = TestBroker.run();
    KafkaTransportTest.app(run)
        .withBean(
            "applicationsErrorHandler",
            CommonErrorHandler.class,
            () -> new DefaultErrorHandler(new FixedBackOff(0, 0)))
        .withBean(
            "applicationsRecordInterceptor",
            RecordInterceptor.class,
            () -> (record, consumer) -> record)
        .withPropertyValues(
            // Applied, as to the application's own listeners:
            "spring.kafka.listener.poll-timeout=1234ms",
            "spring.kafka.listener.idle-between-polls=7ms",
            "spring.kafka.listener.log-container-config=true",
            "spring.kafka.listener.monitor-interval=17s",
            // Once's own settings win:
            "spring.kafka.listener.ack-mode=record",
            "spring.kafka.listener.concurrency=5",
            "spring.kafka.listener.type=single",
            "spring.kafka.listener.async-acks=true",
            "once.kafka.consumer.concurrency=3",
            "once.kafka.consumer.commit-interval=250ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ConcurrentMessageListenerContainer<String, String> container =
                  context.getBean(InboxListeners.class).containers().get(0);
              ContainerProperties properties = container.getContainerProperties();
              assertThat(properties.getPollTimeout()).isEqualTo(1234);
              assertThat(properties.getIdleBetweenPolls()).isEqualTo(7);
              assertThat(properties.isLogContainerConfig()).isTrue();
              assertThat(properties.getMonitorInterval()).isEqualTo(17);

              assertThat(properties.getAckMode()).isEqualTo(ContainerProperties.AckMode.TIME);
              assertThat(properties.getAckTime()).isEqualTo(250);
              assertThat(properties.isAsyncAcks()).isFalse();
              assertThat(container.getConcurrency()).isEqualTo(3);
              assertThat(properties.getMessageListener()).isInstanceOf(PartitionBatches.class);
              assertThat(properties.isSubBatchPerPartition()).isTrue();
              assertThat(properties.getGroupId()).isEqualTo(KafkaTestApplication.consumer(run));
              assertThat(container.getCommonErrorHandler())
                  .isNotSameAs(context.getBean("applicationsErrorHandler"));
              // The application's record interceptor, which a batch listener never calls, is not
              // set: the start was not refused for it.
              assertThat(container.getRecordInterceptor()).isNull();
            });
  }

  /**
   * What stopped the start, as the application's log shows it: the failure analysis that a
   * registered {@link FailureAnalyzer} gives (Once's names each rejected property, its reason and
   * its value), or else the message of the failure that says the configuration is invalid.
   */
  private static String configurationFailure(AssertableApplicationContext context) {
    Throwable failure = context.getStartupFailure();
    // Analyzers that need the application's environment or bean factory are left out; Once's
    // needs neither.
    for (FailureAnalyzer analyzer :
        SpringFactoriesLoader.forDefaultResourceLocation()
            .load(
                FailureAnalyzer.class,
                null,
                SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> {}))) {
      FailureAnalysis analysis = analyzer.analyze(failure);
      if (analysis != null && analysis.getDescription().startsWith("Once's configuration")) {
        return analysis.getDescription();
      }
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().startsWith("Invalid configuration")) {
        return t.getMessage();
      }
    }
    throw new AssertionError("no 'Invalid configuration' failure", failure);
  }

  private static String groupId(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    InboxListeners listeners = context.getBean(InboxListeners.class);
    assertThat(listeners.containers()).hasSize(1);
    return listeners.containers().get(0).getContainerProperties().getGroupId();
  }
}
