package dev.once.outbox;

/**
 * Causes the outside effect of one outbox message type. Called by the relay after the row's
 * transaction committed, with NO database transaction open, at least once per row (again after a
 * crash, a lost lease or a retry), so the effect must be idempotent on {@link
 * OutboxRecord#messageId()} or on a key derived from the payload. Called concurrently for rows of
 * different aggregates, never concurrently for two rows of one aggregate while the lease holds.
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
}
