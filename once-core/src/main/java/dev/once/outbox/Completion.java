package dev.once.outbox;

import java.sql.Connection;

/**
 * The relay's completion of one claimed row, offered to a {@link MessageHandler} that records the
 * outcome of its call in a database transaction of its own (the shop's settlement of a payment, an
 * inbox consumer's effect). {@link #completeIn(Connection)} writes the row's completion into that
 * transaction, so the handler's writes and the row's "delivered" commit together, in one commit, or
 * not at all.
 *
 * <p>Guarantees: the completion is the same compare-and-set on the row's id and claim as the
 * relay's own, so a relay that lost its claim (its process was paused past its lease and another
 * relay took the row) cannot complete it: {@link #completeIn} then throws {@link
 * ClaimLostException}, and the handler's transaction must roll back. If the transaction rolls back
 * for any reason, the row is not completed and is handled again (the handler must return {@link
 * Delivery#retry(String)} or throw in that case). A handler that never calls it is completed by the
 * relay after it returns {@link Delivery#done()}, in a transaction of the relay's own.
 *
 * <p>Not thread-safe: use it on the handler's thread, once.
 */
public interface Completion {

  /** For callers outside the relay (tests, tools): completes nothing, {@link #joined()} false. */
  Completion NONE =
      new Completion() {
        @Override
        public void completeIn(Connection tx) {}

        @Override
        public boolean joined() {
          return false;
        }
      };

  /**
   * Completes the row in {@code tx}, the caller's open transaction, which the caller then commits.
   * With a delivered-rows retention of zero the row is deleted in that statement, otherwise marked
   * delivered. Call it at most once, after the handler's own writes or before them.
   *
   * @throws ClaimLostException if this relay no longer holds the row: roll {@code tx} back
   * @throws OutboxException if the database failed: roll {@code tx} back
   */
  void completeIn(Connection tx);

  /** Whether {@link #completeIn} succeeded on this attempt. */
  boolean joined();
}
