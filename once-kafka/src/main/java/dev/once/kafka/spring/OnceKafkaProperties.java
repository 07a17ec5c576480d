package dev.once.kafka.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code once.kafka.*}: Kafka as Once's event transport. The connection itself (bootstrap servers,
 * security, client properties) is Spring Boot's {@code spring.kafka.*}; Once's transport is on when
 * {@code spring.kafka.bootstrap-servers} is set and {@code once.kafka.enabled} is not false.
 */
@ConfigurationProperties("once.kafka")
public class OnceKafkaProperties {
  /**
   * Whether outbox events go through Kafka when spring.kafka.bootstrap-servers is set. False: they
   * stay in process, delivered to this application's inbox consumers.
   */
  private boolean enabled = true;

  /**
   * Event type to topic, for types that do not go to the topic of their own name, e.g.
   * once.kafka.topics[order.placed]=shop.orders. Map an aggregate's types to one topic when a
   * consumer needs their order across types.
   */
  private Map<String, String> topics = new LinkedHashMap<>();

  /** Appended to a topic's name to name its dead-letter topic. */
  private String deadLetterSuffix = ".dlt";

  private final Topic topic = new Topic();
  private final Producer producer = new Producer();
  private final Consumer consumer = new Consumer();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, String> getTopics() {
    return topics;
  }

  public void setTopics(Map<String, String> topics) {
    this.topics = topics;
  }

  public String getDeadLetterSuffix() {
    return deadLetterSuffix;
  }

  public void setDeadLetterSuffix(String deadLetterSuffix) {
    this.deadLetterSuffix = deadLetterSuffix;
  }

  public Topic getTopic() {
    return topic;
  }

  public Producer getProducer() {
    return producer;
  }

  public Consumer getConsumer() {
    return consumer;
  }

  /** The topics Once creates at start, when they do not exist. */
  public static class Topic {
    /**
     * Whether Once creates the event topics and their dead-letter topics at start, when they do not
     * exist (it never changes a topic that does).
     */
    private boolean create = true;

    /**
     * Partitions of each topic Once creates: the most consumer instances of one consumer group that
     * can share its work. 1 to 10000.
     */
    private int partitions = 6;

    /**
     * Replicas of each topic Once creates; 0 takes the broker's default.replication.factor. Use 3
     * in production, with min.insync.replicas=2.
     */
    private short replicationFactor = 0;

    public boolean isCreate() {
      return create;
    }

    public void setCreate(boolean create) {
      this.create = create;
    }

    public int getPartitions() {
      return partitions;
    }

    public void setPartitions(int partitions) {
      this.partitions = partitions;
    }

    public short getReplicationFactor() {
      return replicationFactor;
    }

    public void setReplicationFactor(short replicationFactor) {
      this.replicationFactor = replicationFactor;
    }
  }

  /** The relay's publishing. */
  public static class Producer {
    /**
     * How long one publication may wait for the broker's acknowledgement (Kafka's
     * delivery.timeout.ms and max.block.ms) before it counts as a failed attempt and the relay
     * retries it. Must be shorter than the relay's handler-timeout. 1s to 10m.
     */
    private Duration sendTimeout = Duration.ofSeconds(10);

    public Duration getSendTimeout() {
      return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
      this.sendTimeout = sendTimeout;
    }
  }

  /** The listeners that apply records through the inbox. */
  public static class Consumer {
    /**
     * Whether this application's inbox consumers read their events from Kafka. False: it only
     * publishes (another service consumes).
     */
    private boolean enabled = true;

    /**
     * Prefix of each consumer's group id, which is the prefix and the consumer's name. Empty: the
     * application's name (spring.application.name) and a dot, or nothing without one.
     */
    private String groupPrefix;

    /**
     * Listener threads per inbox consumer in this instance; the partitions of its topics are shared
     * among them and among the other instances. 1 to 100.
     */
    private int concurrency = 2;

    /**
     * Lanes per partition: a partition's records of one poll are split by key into this many lanes,
     * each applied in its own database transaction, the lanes concurrently; the records of one key
     * stay in one lane, in offset order. 1: one transaction per partition's poll. Raise it when one
     * partition is hot and its transactions wait on the database rather than on each other's row
     * locks. 1 to 64.
     */
    private int keyLanes = 1;

    /**
     * Attempts at a record that fails for a reason other than an unavailable database, before it
     * goes to the dead-letter topic and the partition goes on. A record refused as invalid (no
     * message id, not JSON) is dead-lettered at once; a database outage is retried until the
     * database is back, never dead-lettered. 1 to 1000.
     */
    private int maxAttempts = 10;

    /**
     * How often the listeners commit the offsets of the records they applied (after a WAL flush
     * made their effects durable); 0 commits after every poll. A crash redelivers what was applied
     * since the last commit, and the inbox skips it. 0 to 1m.
     */
    private Duration commitInterval = Duration.ofMillis(100);

    /** Wait before the second attempt at a failed record; doubles up to max-backoff. */
    private Duration initialBackoff = Duration.ofMillis(100);

    /**
     * Longest wait between attempts; keep it well under max.poll.interval.ms (5 min by default), as
     * the listener waits on its own thread.
     */
    private Duration maxBackoff = Duration.ofSeconds(10);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public String getGroupPrefix() {
      return groupPrefix;
    }

    public void setGroupPrefix(String groupPrefix) {
      this.groupPrefix = groupPrefix;
    }

    public int getConcurrency() {
      return concurrency;
    }

    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    public int getKeyLanes() {
      return keyLanes;
    }

    public void setKeyLanes(int keyLanes) {
      this.keyLanes = keyLanes;
    }

    public int getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getCommitInterval() {
      return commitInterval;
    }

    public void setCommitInterval(Duration commitInterval) {
      this.commitInterval = commitInterval;
    }

    public Duration getInitialBackoff() {
      return initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
      this.initialBackoff = initialBackoff;
    }

    public Duration getMaxBackoff() {
      return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
    }
  }

  /**
   * Checks every range, naming the property and its value.
   *
   * @throws IllegalStateException on the first value out of range
   */
  void validate() {
    range("once.kafka.topic.partitions", topic.partitions, 1, 10_000);
    range("once.kafka.topic.replication-factor", topic.replicationFactor, 0, 32);
    range("once.kafka.consumer.concurrency", consumer.concurrency, 1, 100);
    range("once.kafka.consumer.key-lanes", consumer.keyLanes, 1, PartitionBatches.MAX_LANES);
    range("once.kafka.consumer.max-attempts", consumer.maxAttempts, 1, 1000);
    duration(
        "once.kafka.producer.send-timeout",
        producer.sendTimeout,
        Duration.ofSeconds(1),
        Duration.ofMinutes(10));
    duration(
        "once.kafka.consumer.commit-interval",
        consumer.commitInterval,
        Duration.ZERO,
        Duration.ofMinutes(1));
    duration(
        "once.kafka.consumer.initial-backoff",
        consumer.initialBackoff,
        Duration.ofMillis(1),
        Duration.ofMinutes(5));
    duration(
        "once.kafka.consumer.max-backoff",
        consumer.maxBackoff,
        consumer.initialBackoff == null ? Duration.ofMillis(1) : consumer.initialBackoff,
        Duration.ofMinutes(5));
    if (deadLetterSuffix == null || deadLetterSuffix.isEmpty()) {
      throw new IllegalStateException(
          "Invalid configuration: once.kafka.dead-letter-suffix must not be empty.");
    }
    // Checked here too, not only by EventTopics, so that the message names the property.
    if (!deadLetterSuffix.matches("[a-zA-Z0-9._-]+")) {
      throw new IllegalStateException(
          "Invalid configuration: once.kafka.dead-letter-suffix must be letters, digits, '.', '_'"
              + " or '-', but was '"
              + deadLetterSuffix
              + "'.");
    }
  }

  private static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalStateException(
          "Invalid configuration: "
              + name
              + " must be "
              + min
              + " to "
              + max
              + ", but was "
              + value
              + ".");
    }
  }

  private static void duration(String name, Duration value, Duration min, Duration max) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalStateException(
          "Invalid configuration: "
              + name
              + " must be "
              + min
              + " to "
              + max
              + ", but was "
              + value
              + ".");
    }
  }
}
