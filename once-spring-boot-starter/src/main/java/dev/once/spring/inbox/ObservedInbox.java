package dev.once.spring.inbox;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Completion;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** An {@link Inbox} that reports the duplicates it skipped. Thread-safe if the delegate is. */
final class ObservedInbox implements Inbox {
  private final Inbox delegate;
  private final InboxDuplicates duplicates;

  ObservedInbox(Inbox delegate, InboxDuplicates duplicates) {
    this.delegate = delegate;
    this.duplicates = duplicates;
  }

  @Override
  public boolean deliver(InboxConsumer consumer, InboxMessage message) throws Exception {
    boolean applied = delegate.deliver(consumer, message);
    if (!applied) {
      duplicates.skipped(consumer, message);
    }
    return applied;
  }

  @Override
  public boolean deliver(InboxConsumer consumer, InboxMessage message, Completion completion)
      throws Exception {
    boolean applied = delegate.deliver(consumer, message, completion);
    if (!applied) {
      duplicates.skipped(consumer, message);
    }
    return applied;
  }

  @Override
  public Set<UUID> deliverAll(
      BatchInboxConsumer consumer, List<InboxMessage> messages, Completion completion)
      throws Exception {
    Set<UUID> applied = delegate.deliverAll(consumer, messages, completion);
    for (InboxMessage message : messages) {
      if (!applied.contains(message.messageId())) {
        duplicates.skipped(consumer, message);
      }
    }
    return applied;
  }

  @Override
  public int purge(Duration retention, int limit) {
    return delegate.purge(retention, limit);
  }
}
