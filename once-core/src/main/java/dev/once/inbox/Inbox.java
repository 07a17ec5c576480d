package dev.once.inbox;

import dev.once.outbox.Completion;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

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

  /**
   * Delivers {@code messages} to {@code consumer} in ONE new transaction: records every {@code
   * (messageId, consumer name)} in one statement, in message-id order (so concurrent batches take
   * their inbox records' locks in one order and never deadlock on them), calls {@link
   * BatchInboxConsumer#consumeAll} with the messages whose record is new, in the order given (a
   * message id given twice is applied once), and completes the outbox rows of {@code completion} in
   * the same transaction. Messages of types the consumer does not take are recorded and applied
   * like the others: filter them before.
   *
   * <p>All or nothing: if the consumer, the database or the completion throws, the transaction is
   * rolled back and nothing is recorded; the caller then delivers the messages one at a time with
   * {@link #deliver} to isolate the failing one (the batch path's fallback, which the Kafka
   * listeners and the in-process transport take).
   *
   * @param completion the completion of the outbox rows that carried the messages ({@link
   *     Completion#NONE}: none), also completed for duplicates
   * @return the ids of the messages applied now; the others had been applied before
   * @throws Exception what the consumer or the database threw: nothing committed
   */
  Set<UUID> deliverAll(
      BatchInboxConsumer consumer, List<InboxMessage> messages, Completion completion)
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
