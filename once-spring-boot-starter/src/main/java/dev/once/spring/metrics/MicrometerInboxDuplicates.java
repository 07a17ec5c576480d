package dev.once.spring.metrics;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.inbox.InboxDuplicates;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Counts skipped redeliveries as {@value #DUPLICATES}, tagged {@code consumer}. Thread-safe. */
final class MicrometerInboxDuplicates implements InboxDuplicates {
  public static final String DUPLICATES = "once.inbox.duplicates";

  private final MeterRegistry registry;

  public MicrometerInboxDuplicates(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void skipped(InboxConsumer consumer, InboxMessage message) {
    Counter.builder(DUPLICATES)
        .description("Redelivered messages the inbox skipped because the consumer had applied them")
        .tag("consumer", consumer.name())
        .register(registry)
        .increment();
  }
}
