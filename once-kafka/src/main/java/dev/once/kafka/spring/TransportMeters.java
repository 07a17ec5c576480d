package dev.once.kafka.spring;

import dev.once.kafka.PublishListener;
import java.util.function.Supplier;

/** What the Kafka transport reports for metrics; {@link #NONE} without Micrometer. */
interface TransportMeters {
  TransportMeters NONE = new TransportMeters() {};

  default PublishListener publishing() {
    return PublishListener.NONE;
  }

  /** {@code consumer} applied a record now ({@code duplicate} false) or had before (true). */
  default void consumed(String consumer, boolean duplicate) {}

  /**
   * {@code consumer} committed one inbox transaction of {@code messages} messages (a batch of a
   * poll's records of one partition; a record applied alone is not reported).
   */
  default void transaction(String consumer, int messages) {}

  /** {@code consumer} gave up on a record of {@code topic}; it went to the dead-letter topic. */
  default void deadLettered(String consumer, String topic) {}

  /** Registers {@code consumer}'s lag: records on its partitions not yet applied. */
  default void lag(String consumer, Supplier<Number> records) {}
}
