package dev.once.shop.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in process) per test JVM, started by the first test that asks for
 * it, for the shop with its events through Kafka.
 */
public final class ShopBroker {
  private static EmbeddedKafkaKraftBroker broker;

  private ShopBroker() {}

  /** The bootstrap servers, {@code host:port}; starts the broker on the first call. */
  public static synchronized String servers() {
    if (broker == null) {
      EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 6);
      started.brokerProperty("group.initial.rebalance.delay.ms", "0");
      started.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
      broker = started;
    }
    return broker.getBrokersAsString();
  }

  /** Every record on {@code topic} from its start to its end as of now, as an outsider reads it. */
  public static List<ConsumerRecord<String, String>> readAll(String topic) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            servers(),
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
