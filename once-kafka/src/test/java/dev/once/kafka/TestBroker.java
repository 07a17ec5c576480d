package dev.once.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in process: Kafka's own {@code KafkaClusterTestKit}) per test JVM,
 * for the tests of once-kafka. Tests isolate themselves by topic and group names with a per-run
 * suffix, never by wiping the broker.
 */
public final class TestBroker {
  private static final EmbeddedKafkaKraftBroker BROKER = start();

  private TestBroker() {}

  private static EmbeddedKafkaKraftBroker start() {
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
    broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
    broker.brokerProperty("auto.create.topics.enable", "true");
    broker.afterPropertiesSet();
    Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy));
    return broker;
  }

  /** The bootstrap servers, {@code host:port}. */
  public static String servers() {
    return BROKER.getBrokersAsString();
  }

  /** The broker itself, for tests that restart it. */
  public static EmbeddedKafkaKraftBroker broker() {
    return BROKER;
  }

  /** A fresh suffix for names of one test. */
  public static String run() {
    return UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * Every record on {@code topic} from its start up to its end as of now, as an outside service
   * reads them.
   */
  public static List<ConsumerRecord<String, String>> readAll(String topic) {
    return readAll(servers(), topic);
  }

  /** As {@link #readAll(String)}, on the broker at {@code servers}. */
  public static List<ConsumerRecord<String, String>> readAll(String servers, String topic) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            servers,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("could not read " + topic + " to its end within 60 s");
        }
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }
}
