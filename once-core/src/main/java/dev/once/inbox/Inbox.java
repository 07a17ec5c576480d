package dev.once.inbox;

import dev.once.outbox.Completion;
import java.time.Clock;
import java.time.Duration;

/**
 * Exactly-once consumption of messages that arrive at least once (G2). Thread-safe.
 *
 * <p>Records are kept for a retention that must be longer than the longest redelivery of a message
 * (the relay's retry span, plus the time an operator may take to requeue a dead row): a message
 * delivered again after its record was purged is taken as new.
 */
public interface Inbox {

  /**
   * Delivers {@code message} to {@code consumer} in a new transaction: records {@code (messageId,
   * consumer name)} and, only if the record is new, runs the consumer in the same transaction.
   *
   * @return {@code true} if the consumer applied the message now, {@code false} if it had already
   * @throws Exception what the consumer threw; the transaction is rolled back, nothing is recorded
   */
  boolean deliver(InboxConsumer consumer, InboxMessage message) throws Exception;

  /**
   * As {@link #deliver(InboxConsumer, InboxMessage)}, and completes the outbox row that carried the
   * message in the same transaction, also when the message is a duplicate: the consumer's effect,
   * its inbox record and the row's completion commit together (the in-process transport's last
   * consumer of an event, one commit for both).
   *
   * @throws dev.once.outbox.ClaimLostException if the relay no longer holds the row; nothing
   *     commits
   */
  boolean deliver(InboxConsumer consumer, InboxMessage message, Completion completion)
      throws Exception;

  /** Fewest records one {@link #purge} may delete. */
  int MIN_PURGE_LIMIT = 1;

  /** Most records one {@link #purge} may delete. */
  int MAX_PURGE_LIMIT = 100_000;

  /**
   * Deletes up to {@code limit} ({@value #MIN_PURGE_LIMIT} to {@value #MAX_PURGE_LIMIT}) records
   * older than {@code retention} by the database's clock, oldest first.
   *
   * @return how many were deleted
   */
  int purge(Duration retention, int limit);

  /**
   * An inbox on {@code store}, running consumers in {@code transactions}. Records are stamped, and
   * their retention judged, by the database's clock.
   */
  static Inbox of(InboxStore store, Transactions transactions) {
    return new DefaultInbox(store, transactions);
  }

  /**
   * As {@link #of(InboxStore, Transactions)}; {@code clock} is ignored.
   *
   * @deprecated the inbox reads no application clock: use {@link #of(InboxStore, Transactions)}
   */
  @Deprecated(forRemoval = true)
  static Inbox of(InboxStore store, Transactions transactions, Clock clock) {
    return of(store, transactions);
  }
}
