package dev.once.outbox;

import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Operations on the outbox for operators: list dead rows, requeue one, read the backlog.
 * Thread-safe; each method is one short statement in its own transaction.
 */
public interface OutboxAdmin {

  /**
   * Dead rows with an id above {@code afterId}, in id order, at most {@code limit} (1..1000).
   *
   * @throws IllegalArgumentException if {@code afterId} is negative or {@code limit} is out of
   *     range
   */
  List<DeadMessage> dead(long afterId, int limit);

  /**
   * Moves a dead row back to {@code pending}, due now, with its attempt counter reset, so the relay
   * tries it again with the full retry budget.
   *
   * @return {@code true} if the row was dead and is now pending; {@code false} if no dead row has
   *     this id (never existed, delivered, already requeued)
   */
  boolean requeue(long id);

  /** Backlog, age of the oldest due row and dead rows. */
  OutboxStats stats();

  /** The admin on {@code store}, measuring ages with {@code clock}. */
  static OutboxAdmin of(OutboxStore store, Clock clock) {
    return new DefaultOutboxAdmin(
        Objects.requireNonNull(store, "store"), Objects.requireNonNull(clock, "clock"));
  }
}
