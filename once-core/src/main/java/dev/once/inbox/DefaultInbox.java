package dev.once.inbox;

import dev.once.outbox.Completion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Inbox} that claims {@code (messageId, consumer)} and runs the consumer in one transaction.
 */
final class DefaultInbox implements Inbox {
  private static final Logger log = LoggerFactory.getLogger(DefaultInbox.class);

  /** Longest consumer name; the table's check constraint says the same. */
  static final int MAX_CONSUMER_NAME = 200;

  private final InboxStore store;
  private final Transactions transactions;

  DefaultInbox(InboxStore store, Transactions transactions) {
    this.store = Objects.requireNonNull(store, "store");
    this.transactions = Objects.requireNonNull(transactions, "transactions");
  }

  @Override
  public boolean deliver(InboxConsumer consumer, InboxMessage message) throws Exception {
    return deliver(consumer, message, Completion.NONE);
  }

  @Override
  public boolean deliver(InboxConsumer consumer, InboxMessage message, Completion completion)
      throws Exception {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(completion, "completion");
    String name = validName(consumer);
    return transactions.inTransaction(
        tx -> {
          boolean applied = store.claim(tx, message.messageId(), name);
          if (applied) {
            consumer.consume(tx, message);
          } else {
            log.debug(
                "Duplicate message {} of type {} for consumer {}: already applied, skipped",
                message.messageId(),
                message.type(),
                name);
          }
          completion.completeIn(tx);
          return applied;
        });
  }

  @Override
  public Set<UUID> deliverAll(
      BatchInboxConsumer consumer, List<InboxMessage> messages, Completion completion)
      throws Exception {
    Objects.requireNonNull(messages, "messages");
    Objects.requireNonNull(completion, "completion");
    String name = validName(consumer);
    Set<UUID> ids = new LinkedHashSet<>();
    for (InboxMessage message : messages) {
      ids.add(Objects.requireNonNull(message, "message").messageId());
    }
    if (ids.isEmpty()) {
      return Set.of();
    }
    return transactions.inTransaction(
        tx -> {
          Set<UUID> fresh = store.claimAll(tx, ids, name);
          List<InboxMessage> applying = new ArrayList<>(fresh.size());
          Set<UUID> taken = new HashSet<>();
          for (InboxMessage message : messages) {
            if (fresh.contains(message.messageId()) && taken.add(message.messageId())) {
              applying.add(message);
            }
          }
          if (!applying.isEmpty()) {
            consumer.consumeAll(tx, applying);
          }
          if (applying.size() < messages.size()) {
            log.debug(
                "{} of {} messages for consumer {} were duplicates: already applied, skipped",
                messages.size() - applying.size(),
                messages.size(),
                name);
          }
          completion.completeIn(tx);
          return Set.copyOf(fresh);
        });
  }

  /** The consumer's name, checked before any transaction opens. */
  static String validName(InboxConsumer consumer) {
    Objects.requireNonNull(consumer, "consumer");
    String name = consumer.name();
    if (name == null || name.isEmpty() || name.length() > MAX_CONSUMER_NAME) {
      throw new IllegalArgumentException(
          "An inbox consumer's name must be 1 to "
              + MAX_CONSUMER_NAME
              + " characters, but "
              + consumer.getClass().getName()
              + " has "
              + (name == null ? "null" : name.length() + " characters"));
    }
    return name;
  }

  @Override
  public int purge(Duration retention, int limit) {
    Objects.requireNonNull(retention, "retention");
    if (retention.isNegative()) {
      throw new IllegalArgumentException("retention must not be negative, but was " + retention);
    }
    if (limit < MIN_PURGE_LIMIT || limit > MAX_PURGE_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be " + MIN_PURGE_LIMIT + " to " + MAX_PURGE_LIMIT + ", but was " + limit);
    }
    return store.purge(retention, limit);
  }
}
