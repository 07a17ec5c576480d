package dev.once.test;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.outbox.MessageHandler;
import dev.once.test.consumer.ConsumerAssert;
import dev.once.test.consumer.ConsumerTarget;
import dev.once.test.handler.HandlerAssert;

/**
 * The kit's entry points, for static import: each starts an assertion that proves one part of an
 * application idempotent against real retries, redeliveries and faults, and fails once listing
 * every violation found.
 */
public final class OnceAssertions {
  private OnceAssertions() {}

  /** Assertions on a consumer reached through {@code target}. */
  public static ConsumerAssert assertThatConsumer(ConsumerTarget target) {
    return new ConsumerAssert(target);
  }

  /** Assertions on {@code consumer} behind {@code inbox}: {@link ConsumerTarget#throughInbox}. */
  public static ConsumerAssert assertThatConsumer(Inbox inbox, InboxConsumer consumer) {
    return new ConsumerAssert(ConsumerTarget.throughInbox(inbox, consumer));
  }

  /** Assertions on an outbox {@code handler}, called as the relay calls it. */
  public static HandlerAssert assertThatHandler(MessageHandler handler) {
    return new HandlerAssert(handler);
  }
}
