package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
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

  /**
   * How long the oldest row that the relay could claim right now has waited past its due time; zero
   * if none waits. Such a row is pending, due, not leased and the first undelivered row of its
   * aggregate, of any type: a row being handled, waiting for its retry, or held back behind an
   * earlier row of its aggregate (such as a dead one) is not waiting for the relay and does not
   * count, while a row whose lease ran out does, from its due time. Unlike {@link #stats()}, which
   * counts the whole backlog, this reads one row from the due index: cheap enough to run several
   * times a second, which load shedding does.
   */
  Duration oldestClaimableAge();

  /** The admin on {@code store}; ages and due times are the database's clock. */
  static OutboxAdmin of(OutboxStore store) {
    return new DefaultOutboxAdmin(Objects.requireNonNull(store, "store"));
  }

  /**
   * As {@link #of(OutboxStore)}; {@code clock} is ignored.
   *
   * @deprecated ages are measured with the database's clock: use {@link #of(OutboxStore)}
   */
  @Deprecated(forRemoval = true)
  static OutboxAdmin of(OutboxStore store, Clock clock) {
    return of(store);
  }
}
