package dev.once.inbox;

import java.time.Clock;
import java.time.Duration;

/** PLACEHOLDER: being written. */
final class DefaultInbox implements Inbox {
  DefaultInbox(InboxStore store, Transactions transactions, Clock clock) {}

  @Override
  public boolean deliver(InboxConsumer consumer, InboxMessage message) {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public int purge(Duration retention, int limit) {
    throw new UnsupportedOperationException("not yet");
  }
}
