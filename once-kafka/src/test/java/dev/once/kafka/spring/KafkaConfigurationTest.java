package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.events.EventTransport;
import dev.once.events.InProcessEventTransport;
import dev.once.kafka.EventTopics;
import dev.once.kafka.KafkaEventPublisher;
import dev.once.kafka.TestBroker;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.testing.TestDatabase;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

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
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                KafkaAutoConfiguration.class,
                OnceKafkaAutoConfiguration.class,
                OnceAutoConfiguration.class))
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
        "once.kafka.topic.partitions=0 | once.kafka.topic.partitions must be 1 to 10000, but was 0",
        "once.kafka.consumer.concurrency=0 | once.kafka.consumer.concurrency must be 1 to 100",
        "once.kafka.consumer.key-lanes=0 | once.kafka.consumer.key-lanes must be 1 to 64, but was 0",
        "once.kafka.consumer.key-lanes=65 | once.kafka.consumer.key-lanes must be 1 to 64",
        "once.kafka.consumer.max-attempts=0 | once.kafka.consumer.max-attempts must be 1 to 1000",
        "once.kafka.dead-letter-suffix= | once.kafka.dead-letter-suffix must not be empty",
        "once.kafka.dead-letter-suffix=.d l t | once.kafka.dead-letter-suffix",
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

  /** The message of the failure that says the configuration is invalid, from the start's causes. */
  private static String configurationFailure(AssertableApplicationContext context) {
    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().startsWith("Invalid configuration")) {
        return t.getMessage();
      }
    }
    throw new AssertionError("no 'Invalid configuration' failure", context.getStartupFailure());
  }

  private static String groupId(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    InboxListeners listeners = context.getBean(InboxListeners.class);
    assertThat(listeners.containers()).hasSize(1);
    return listeners.containers().get(0).getContainerProperties().getGroupId();
  }
}
