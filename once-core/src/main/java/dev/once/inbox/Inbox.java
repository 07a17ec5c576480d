package dev.once.inbox;

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
   * Deletes up to {@code limit} records older than {@code retention}, oldest first.
   *
   * @return how many were deleted
   */
  int purge(Duration retention, int limit);

  /** An inbox on {@code store}, running consumers in {@code transactions}. */
  static Inbox of(InboxStore store, Transactions transactions, Clock clock) {
    return new DefaultInbox(store, transactions, clock);
  }
}
