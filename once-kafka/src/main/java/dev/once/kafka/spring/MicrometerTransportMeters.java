package dev.once.kafka.spring;

import dev.once.kafka.PublishListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The Kafka transport's meters:
 *
 * <ul>
 *   <li>{@code once.kafka.publish} (timer; tags {@code type}, {@code outcome} = {@code
 *       acknowledged} or {@code failed}): from send to the broker's acknowledgement;
 *   <li>{@code once.kafka.consumer.records} (counter; tags {@code consumer}, {@code outcome} =
 *       {@code applied} or {@code duplicate}): records applied through the inbox, and redeliveries
 *       the inbox absorbed;
 *   <li>{@code once.kafka.consumer.batch} (distribution summary; tag {@code consumer}): messages
 *       per inbox transaction of a batch (a poll's records of one partition), so the records per
 *       transaction of a consumer is its {@code once.kafka.consumer.records} over this summary's
 *       count plus the records applied alone;
 *   <li>{@code once.kafka.consumer.dead.letters} (counter; tags {@code consumer}, {@code topic}):
 *       records sent to the dead-letter topic;
 *   <li>{@code once.kafka.consumer.lag} (gauge; tag {@code consumer}): records on the consumer's
 *       partitions in this instance that it has not applied yet, as of its last record.
 * </ul>
 */
final class MicrometerTransportMeters implements TransportMeters {
  private final MeterRegistry registry;
  private final PublishListener publishing;

  MicrometerTransportMeters(MeterRegistry registry) {
    this.registry = registry;
    this.publishing =
        new PublishListener() {
          @Override
          public void published(String type, String topic, Duration latency) {
            timer(type, "acknowledged").record(latency);
          }

          @Override
          public void failed(String type, String topic, Duration latency, Throwable failure) {
            timer(type, "failed").record(latency);
          }
        };
  }

  private Timer timer(String type, String outcome) {
    return Timer.builder("once.kafka.publish")
        .description("Publication of an outbox event to Kafka, from send to acknowledgement")
        .tag("type", type)
        .tag("outcome", outcome)
        .publishPercentiles(0.5, 0.99)
        .register(registry);
  }

  @Override
  public PublishListener publishing() {
    return publishing;
  }

  @Override
  public void consumed(String consumer, boolean duplicate) {
    Counter.builder("once.kafka.consumer.records")
        .description("Kafka records applied through the inbox, or absorbed as redeliveries")
        .tag("consumer", consumer)
        .tag("outcome", duplicate ? "duplicate" : "applied")
        .register(registry)
        .increment();
  }

  @Override
  public void transaction(String consumer, int messages) {
    DistributionSummary.builder("once.kafka.consumer.batch")
        .description("Messages per inbox transaction of a batch of Kafka records")
        .baseUnit("messages")
        .tag("consumer", consumer)
        .register(registry)
        .record(messages);
  }

  @Override
  public void deadLettered(String consumer, String topic) {
    Counter.builder("once.kafka.consumer.dead.letters")
        .description("Kafka records a consumer gave up on, sent to the dead-letter topic")
        .tag("consumer", consumer)
        .tag("topic", topic)
        .register(registry)
        .increment();
  }

  @Override
  public void lag(String consumer, Supplier<Number> records) {
    Gauge.builder("once.kafka.consumer.lag", records)
        .description("Records on the consumer's partitions in this instance not yet applied")
        .tag("consumer", consumer)
        .register(registry);
  }
}
