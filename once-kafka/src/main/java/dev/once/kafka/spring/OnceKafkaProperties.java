package dev.once.kafka.spring;

import dev.once.spring.internal.Bounds;
import dev.once.spring.internal.CrossChecked;
import dev.once.spring.internal.DurationRange;
import dev.once.spring.internal.IntRange;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;
import org.springframework.validation.annotation.Validated;

/**
 * {@code once.kafka.*}: Kafka as Once's event transport. The connection itself (bootstrap servers,
 * security, client properties) is Spring Boot's {@code spring.kafka.*}; Once's transport is on when
 * {@code spring.kafka.bootstrap-servers} is set and {@code once.kafka.enabled} is not false.
 *
 * <p>Immutable, bound through the constructors and checked by Bean Validation when the application
 * starts, with the constraints and messages of the starter's {@code once.*}: a bad value stops the
 * start, and the report names the property, its value and the allowed range, such as {@code
 * once.kafka.consumer.key-lanes: must be 1 to 64, but was '65'}.
 *
 * @param enabled Whether outbox events go through Kafka when spring.kafka.bootstrap-servers is set.
 *     False: they stay in process, delivered to this application's inbox consumers.
 * @param topics Event type to topic, for types that do not go to the topic of their own name, e.g.
 *     once.kafka.topics[order.placed]=shop.orders. Map an aggregate's types to one topic when a
 *     consumer needs their order across types.
 * @param deadLetterSuffix Appended to a topic's name to name its dead-letter topic: letters,
 *     digits, '.', '_' or '-'.
 * @param topic The topics Once creates at start, when they do not exist
 * @param producer The relay's publishing
 * @param consumer The listeners that apply records through the inbox
 */
@ConfigurationProperties("once.kafka")
@Validated
public record OnceKafkaProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue Map<String, String> topics,
    @NotEmpty
        @Pattern(regexp = "[a-zA-Z0-9._-]+", message = "must be letters, digits, '.', '_' or '-'")
        @DefaultValue(".dlt")
        String deadLetterSuffix,
    @Valid @DefaultValue Topic topic,
    @Valid @DefaultValue Producer producer,
    @Valid @DefaultValue Consumer consumer) {

  /**
   * The topics Once creates at start, when they do not exist.
   *
   * @param create Whether Once creates the event topics and their dead-letter topics at start, when
   *     they do not exist (it never changes a topic that does).
   * @param partitions Partitions of each topic Once creates: the most consumer instances of one
   *     consumer group that can share its work. 1 to 10000.
   * @param replicationFactor Replicas of each topic Once creates; 0 takes the broker's
   *     default.replication.factor. Use 3 in production, with min.insync.replicas=2. 0 to 32.
   */
  public record Topic(
      @DefaultValue("true") boolean create,
      @IntRange(min = 1, max = 10_000) @DefaultValue("6") int partitions,
      @IntRange(min = 0, max = 32) @DefaultValue("0") short replicationFactor) {}

  /**
   * The relay's publishing.
   *
   * @param sendTimeout How long one publication may wait for the broker's acknowledgement (Kafka's
   *     delivery.timeout.ms and max.block.ms) before it counts as a failed attempt and the relay
   *     retries it. Must be shorter than the relay's handler-timeout. 1s to 10m.
   */
  public record Producer(
      @DurationRange(minMillis = 1_000, maxMillis = 600_000) @DefaultValue("10s")
          Duration sendTimeout) {}

  /**
   * The listeners that apply records through the inbox. Its retry settings carry the names of the
   * relay's ({@code once.outbox.relay.retry.*}): {@code max-attempts}, {@code initial-delay},
   * {@code max-delay}.
   *
   * @param enabled Whether this application's inbox consumers read their events from Kafka. False:
   *     it only publishes (another service consumes).
   * @param groupPrefix Prefix of each consumer's group id, which is the prefix and the consumer's
   *     name. Empty: the application's name (spring.application.name) and a dot, or nothing without
   *     one.
   * @param concurrency Listener threads per inbox consumer in this instance; the partitions of its
   *     topics are shared among them and among the other instances. 1 to 100.
   * @param keyLanes Lanes per partition: a partition's records of one poll are split by key into
   *     this many lanes, each applied in its own database transaction, the lanes concurrently; the
   *     records of one key stay in one lane, in offset order. 1: one transaction per partition's
   *     poll. Raise it when one partition is hot and its transactions wait on the database rather
   *     than on each other's row locks. 1 to 64.
   * @param maxAttempts Attempts at a record that fails for a reason other than an unavailable
   *     database, before it goes to the dead-letter topic and the partition goes on. A record
   *     refused as invalid (no message id, not JSON) is dead-lettered at once; a database outage is
   *     retried until the database is back, never dead-lettered. 1 to 1000.
   * @param commitInterval How often the listeners commit the offsets of the records they applied
   *     (after a WAL flush made their effects durable); 0 commits after every poll. A crash
   *     redelivers what was applied since the last commit, and the inbox skips it. 0 to 1m.
   * @param initialDelay Wait before the second attempt at a failed record; doubles up to max-delay.
   *     1ms to 5m.
   * @param maxDelay Longest wait between attempts, at least initial-delay; keep it well under
   *     max.poll.interval.ms (5 min by default), as the listener waits on its own thread. 1ms to
   *     5m.
   */
  @CrossChecked
  public record Consumer(
      @DefaultValue("true") boolean enabled,
      @Nullable String groupPrefix,
      @IntRange(min = 1, max = 100) @DefaultValue("2") int concurrency,
      @IntRange(min = 1, max = PartitionBatches.MAX_LANES) @DefaultValue("1") int keyLanes,
      @IntRange(min = 1, max = 1000) @DefaultValue("10") int maxAttempts,
      @DurationRange(minMillis = 0, maxMillis = 60_000) @DefaultValue("100ms")
          Duration commitInterval,
      @DurationRange(minMillis = 1, maxMillis = 300_000) @DefaultValue("100ms")
          Duration initialDelay,
      @DurationRange(minMillis = 1, maxMillis = 300_000) @DefaultValue("10s") Duration maxDelay)
      implements CrossChecked.Rules {

    @Override
    public void check(CrossChecked.Rejections rejections) {
      if (initialDelay != null && maxDelay != null && maxDelay.compareTo(initialDelay) < 0) {
        rejections.reject(
            "maxDelay",
            "must be at least the initial-delay (" + Bounds.duration(initialDelay) + ")");
      }
    }
  }

  /**
   * The properties that carried other names before, and their names now: an application that still
   * sets an old name is stopped with the new one, rather than left on the default.
   */
  static final Map<String, String> RENAMED =
      Map.of(
          "once.kafka.consumer.initial-backoff", "once.kafka.consumer.initial-delay",
          "once.kafka.consumer.max-backoff", "once.kafka.consumer.max-delay");

  /**
   * Refuses a property of {@link #RENAMED} under its old name.
   *
   * @throws IllegalStateException naming the old name and the new one
   */
  static void refuseRenamed(Environment environment) {
    for (Map.Entry<String, String> renamed : RENAMED.entrySet()) {
      if (environment.containsProperty(renamed.getKey())) {
        throw new IllegalStateException(
            "Invalid configuration: "
                + renamed.getKey()
                + " is now "
                + renamed.getValue()
                + " (the name of the relay's retry setting); set that instead.");
      }
    }
  }
}
