package dev.once.outbox;

/**
 * Causes the outside effect of one outbox message type. Called by the relay after the row's
 * transaction committed, with NO database transaction open, at least once per row (again after a
 * crash, a lost lease, a time-out or a retry), so the effect must be idempotent on {@link
 * OutboxRecord#messageId()} or on a key derived from the payload. Called concurrently for rows of
 * different aggregates, never concurrently for two rows of one aggregate while the relay holds the
 * row.
 *
 * <p>A handler that records the outcome of its call in the database (settles a payment, applies an
 * event in an inbox consumer's transaction) overrides {@link #handle(OutboxRecord, Completion)} and
 * completes the row in that same transaction: one commit per row instead of two.
 *
 * <p>The relay interrupts a handler that runs past its type's time-out and releases the row for a
 * retry; a handler should let {@link InterruptedException} (or the interrupt flag) end its call.
 */
@FunctionalInterface
public interface MessageHandler {

  /**
   * Handles one attempt.
   *
   * @return {@link Delivery#done()}, {@link Delivery#retry(String)} or {@link
   *     Delivery#dead(String)}; never {@code null}
   * @throws Exception taken as a retry
   */
  Delivery handle(OutboxRecord message) throws Exception;

  /**
   * Handles one attempt with the row's {@link Completion}, which the handler may join to the
   * transaction in which it records its outcome; then it returns {@link Delivery#done()} after that
   * transaction committed. The relay calls this method; by default it calls {@link
   * #handle(OutboxRecord)} and the relay completes the row itself.
   */
  default Delivery handle(OutboxRecord message, Completion completion) throws Exception {
    return handle(message);
  }
}
