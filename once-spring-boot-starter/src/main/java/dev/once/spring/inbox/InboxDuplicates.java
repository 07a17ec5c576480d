package dev.once.spring.inbox;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;

/** Told of every redelivery the inbox skipped, for metrics. Fast, never throws; thread-safe. */
@FunctionalInterface
public interface InboxDuplicates {

  /** Counts nothing. */
  InboxDuplicates NONE = (consumer, message) -> {};

  /** {@code consumer} had already applied {@code message}; it was skipped. */
  void skipped(InboxConsumer consumer, InboxMessage message);
}
