package dev.once.kafka;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;

/** Helpers for once-kafka's tests: raw clients, headers, partitions, rows in the database. */
public final class KafkaTestSupport {
  private KafkaTestSupport() {}

  /** A plain producer of string keys and raw values, as a foreign or buggy service has. */
  public static KafkaProducer<String, byte[]> rawProducer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            TestBroker.servers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class));
  }

  /**
   * An idempotent producer of string keys and values with {@code acks=all}, as the publisher's,
   * with short time-outs (a send fails within about 5 s), and {@code extra} settings over them.
   */
  public static KafkaProducer<String, String> producer(Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.servers());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5005);
    config.putAll(extra);
    return new KafkaProducer<>(config);
  }

  /** Creates {@code topic} with {@code partitions} partitions on the test broker. */
  public static void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.servers()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** The partition Kafka's default partitioner picks for {@code key} among {@code partitions}. */
  public static int partitionOf(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /** A key other than {@code key}, starting with {@code prefix}, on the same partition. */
  public static String otherKeyOnPartitionOf(String key, String prefix, int partitions) {
    int partition = partitionOf(key, partitions);
    for (int i = 0; ; i++) {
      String candidate = prefix + i;
      if (!candidate.equals(key) && partitionOf(candidate, partitions) == partition) {
        return candidate;
      }
    }
  }

  /** A key starting with {@code prefix} on another partition than {@code key}'s. */
  public static String keyOnOtherPartitionThan(String key, String prefix, int partitions) {
    int partition = partitionOf(key, partitions);
    for (int i = 0; ; i++) {
      String candidate = prefix + i;
      if (partitionOf(candidate, partitions) != partition) {
        return candidate;
      }
    }
  }

  /** The last header {@code name} of {@code record} as UTF-8 text, or {@code null}. */
  public static String header(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null || header.value() == null
        ? null
        : new String(header.value(), StandardCharsets.UTF_8);
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Rows of {@code once.inbox} for {@code messageId}, any consumer. */
  public static long inboxRows(DataSource dataSource, UUID messageId) {
    return count(dataSource, "SELECT count(*) FROM once.inbox WHERE message_id = ?", messageId);
  }

  /** Rows of {@code once.inbox} of {@code consumer}. */
  public static long inboxRowsOf(DataSource dataSource, String consumer) {
    return count(dataSource, "SELECT count(*) FROM once.inbox WHERE consumer = ?", consumer);
  }

  /** Rows of the effect table of {@code consumer}, whatever the message. */
  public static long effectsOf(DataSource dataSource, String consumer) {
    return count(
        dataSource, "SELECT count(*) FROM public.test_effect WHERE consumer = ?", consumer);
  }

  /** The value of {@code column} of outbox row {@code id}, as text. */
  public static String outboxColumn(DataSource dataSource, long id, String column) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT " + column + "::text FROM once.outbox WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long count(DataSource dataSource, String sql, Object parameter) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setObject(1, parameter);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Throws {@code failure}, checked or not, from code that declares nothing (a Predicate). */
  @SuppressWarnings("unchecked")
  public static <T extends Throwable> RuntimeException sneakyThrow(Throwable failure) throws T {
    throw (T) failure;
  }
}
