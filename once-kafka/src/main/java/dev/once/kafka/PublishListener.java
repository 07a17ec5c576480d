package dev.once.kafka;

import java.time.Duration;

/**
 * Hears how each publication of an event went (for metrics). Called on the relay's worker threads;
 * must be fast and must not throw.
 */
public interface PublishListener {
  /** Hears nothing. */
  PublishListener NONE = new PublishListener() {};

  /** The broker acknowledged the event after {@code latency} (from send to acknowledgement). */
  default void published(String type, String topic, Duration latency) {}

  /** The publication failed after {@code latency}: the relay retries it by its policy. */
  default void failed(String type, String topic, Duration latency, Throwable failure) {}
}
