package dev.once.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (KRaft, in process, combined broker and controller) of one test's own, which
 * the test stops and starts again: the broker process part goes down (clients get connection
 * refused) and comes back on the same port with the same log directory, so what was on its topics
 * before is there after. Not the shared {@link TestBroker}, so other tests are not disturbed.
 */
public final class RestartableBroker implements AutoCloseable {
  private final EmbeddedKafkaKraftBroker broker;

  private RestartableBroker(EmbeddedKafkaKraftBroker broker) {
    this.broker = broker;
  }

  /** Starts a broker on a free, fixed port (so a restart binds it again). */
  public static RestartableBroker start() {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3).kafkaPorts(port);
    // Not the default, spring.kafka.bootstrap-servers: this broker's address must not become the
    // system property every later context of this JVM connects to.
    broker.brokerListProperty("once.test.restartable-broker");
    broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
    broker.brokerProperty("auto.create.topics.enable", "true");
    broker.afterPropertiesSet();
    return new RestartableBroker(broker);
  }

  public String servers() {
    return broker.getBrokersAsString();
  }

  private List<BrokerServer> brokers() {
    return List.copyOf(broker.getCluster().brokers().values());
  }

  /** Shuts the broker down (the controller stays) and waits until it is down. */
  public void stop() {
    for (BrokerServer server : brokers()) {
      // No wait for the controller to move leadership away: there is no other broker to take it.
      server.shutdown(Duration.ofMillis(500));
      server.awaitShutdown();
    }
  }

  /** Starts the broker again, and waits until it answers a client. */
  public void restart() throws Exception {
    for (BrokerServer server : brokers()) {
      server.startup();
    }
    Map<String, Object> config =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            servers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            60_000);
    try (Admin admin = Admin.create(config)) {
      admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
    }
  }

  /** Every record on {@code topic} from its start to its end as of now. */
  public List<ConsumerRecord<String, String>> readAll(String topic) {
    return TestBroker.readAll(servers(), topic);
  }

  @Override
  public void close() {
    broker.destroy();
  }
}
