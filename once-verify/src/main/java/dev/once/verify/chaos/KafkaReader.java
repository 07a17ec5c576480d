package dev.once.verify.chaos;

import static dev.once.verify.chaos.KafkaChecks.CONSUMERS;
import static dev.once.verify.chaos.KafkaChecks.GROUP_PREFIX;
import static dev.once.verify.chaos.KafkaChecks.MESSAGE_ID;
import static dev.once.verify.chaos.KafkaChecks.TYPE;

import dev.once.verify.chaos.KafkaChecks.Wire;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The broker as {@code chaos --kafka} reads it from outside the shop: a plain {@link KafkaConsumer}
 * in no group that reads topics from their first offsets to their ends, and an admin client that
 * reads the shop's consumer groups' committed offsets.
 */
final class KafkaReader {
  static {
    // The reader asks for end offsets of partitions it has not assigned: Kafka's client warns
    // about each of them every time, which says nothing here.
    String quiet =
        "org.slf4j.simpleLogger.log.org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils";
    System.setProperty(quiet, System.getProperty(quiet, "error"));
  }

  private static final Duration WAIT = Duration.ofMinutes(2);

  private KafkaReader() {}

  /**
   * Waits until each consumer group of the shop has committed up to the end of its topics; returns
   * the lag left per group (empty when caught up).
   */
  static Map<String, Long> awaitConsumed(String bootstrap, Duration timeout, PrintStream out)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Long> lag = Map.of();
    long lastPrint = 0;
    try (Admin admin = admin(bootstrap);
        KafkaConsumer<String, String> reader = reader(bootstrap)) {
      while (true) {
        try {
          lag = lag(admin, reader);
        } catch (Exception e) {
          lag = Map.of("(broker unreachable: " + e.getMessage() + ")", -1L);
        }
        if (lag.isEmpty()) {
          out.println("chaos: quiet: every consumer group is at the end of its topics");
          return lag;
        }
        if (System.nanoTime() > deadline) {
          return lag;
        }
        if (System.nanoTime() - lastPrint > 5_000_000_000L) {
          lastPrint = System.nanoTime();
          out.printf("  waiting: consumer lag %s%n", lag);
        }
        Thread.sleep(500); // polling the groups' offsets
      }
    }
  }

  /** How many records the event topics hold in all: unchanged over a while, nothing was added. */
  static long records(String bootstrap) {
    try (KafkaConsumer<String, String> reader = reader(bootstrap)) {
      List<TopicPartition> all = new ArrayList<>();
      for (String topic : CONSUMERS.keySet()) {
        all.addAll(partitions(reader, topic));
      }
      return reader.endOffsets(all, WAIT).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private static Map<String, Long> lag(Admin admin, KafkaConsumer<String, String> reader)
      throws Exception {
    Map<String, Long> lag = new TreeMap<>();
    Map<String, List<TopicPartition>> byGroup = new TreeMap<>();
    List<TopicPartition> all = new ArrayList<>();
    for (Map.Entry<String, String> e : CONSUMERS.entrySet()) {
      for (TopicPartition tp : partitions(reader, e.getKey())) {
        byGroup.computeIfAbsent(GROUP_PREFIX + e.getValue(), g -> new ArrayList<>()).add(tp);
        all.add(tp);
      }
    }
    Map<TopicPartition, Long> ends = reader.endOffsets(all, WAIT);
    for (Map.Entry<String, List<TopicPartition>> g : byGroup.entrySet()) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(g.getKey())
              .partitionsToOffsetAndMetadata()
              .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      long behind = 0;
      for (TopicPartition tp : g.getValue()) {
        OffsetAndMetadata at = committed.get(tp);
        behind += Math.max(0, ends.getOrDefault(tp, 0L) - (at == null ? 0 : at.offset()));
      }
      if (behind > 0) {
        lag.put(g.getKey(), behind);
      }
    }
    return lag;
  }

  /** Every record of {@code topics}, from the first offset of each partition to its end. */
  static List<Wire> readAll(String bootstrap, List<String> topics) {
    try (KafkaConsumer<String, String> reader = reader(bootstrap)) {
      return readAll(reader, topics);
    }
  }

  private static List<Wire> readAll(KafkaConsumer<String, String> reader, List<String> topics) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : topics) {
      partitions.addAll(partitions(reader, topic));
    }
    String topic = String.join(", ", topics);
    List<Wire> got = new ArrayList<>();
    if (partitions.isEmpty()) {
      return got;
    }
    reader.assign(partitions);
    reader.seekToBeginning(partitions);
    Map<TopicPartition, Long> ends = reader.endOffsets(partitions, WAIT);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      boolean done = true;
      for (TopicPartition tp : partitions) {
        if (reader.position(tp, WAIT) < ends.get(tp)) {
          done = false;
          break;
        }
      }
      if (done) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + topic + " to its end in " + WAIT);
      }
      for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(500))) {
        got.add(
            new Wire(
                r.topic(),
                r.partition(),
                r.offset(),
                r.key(),
                header(r, MESSAGE_ID),
                header(r, TYPE)));
      }
    }
    return got;
  }

  private static String header(ConsumerRecord<String, String> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static List<TopicPartition> partitions(
      KafkaConsumer<String, String> reader, String topic) {
    List<PartitionInfo> infos = reader.listTopics(WAIT).get(topic);
    List<TopicPartition> tps = new ArrayList<>();
    if (infos != null) {
      for (PartitionInfo i : infos) {
        tps.add(new TopicPartition(i.topic(), i.partition()));
      }
    }
    return tps;
  }

  private static KafkaConsumer<String, String> reader(String bootstrap) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "once-verify-chaos-reader");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) WAIT.toMillis()));
  }
}
