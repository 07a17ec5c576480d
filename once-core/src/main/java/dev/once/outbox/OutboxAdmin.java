package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * Discards a dead row: it becomes {@code discarded}, terminal, never delivered, kept (with its
   * payload and last error) and purged like a delivered row; the rows of its aggregate held behind
   * it are released and delivered in order. For a message that must not be delivered: its effect is
   * obsolete, or was applied by hand.
   *
   * @return {@code true} if the row was dead and is now discarded; {@code false} if no dead row has
   *     this id (never existed, pending, delivered, requeued or already discarded)
   * @throws UnsupportedOperationException if the store cannot discard (a store of your own)
   */
  default boolean discard(long id) {
    throw new UnsupportedOperationException("this outbox admin does not discard rows");
  }

  /** Backlog, age of the oldest due row and dead rows. */
  OutboxStats stats();

  /**
   * Per message type, in type order, the rows not delivered: pending, held behind a dead row, and
   * dead. Reads every row that is not delivered: ask it on demand, not in a loop (the gauges and
   * {@link #stats()} are for that).
   *
   * @throws UnsupportedOperationException if the store cannot count (a store of your own)
   */
  default List<TypeCounts> countsByType() {
    throw new UnsupportedOperationException("this outbox admin does not count rows by type");
  }

  /**
   * The dead row {@code id}, or empty if no dead row has this id: one step along the dead rows'
   * index.
   */
  default Optional<DeadMessage> deadMessage(long id) {
    if (id < 1) {
      return Optional.empty();
    }
    List<DeadMessage> next = dead(id - 1, 1);
    return next.isEmpty() || next.get(0).id() != id ? Optional.empty() : Optional.of(next.get(0));
  }

  /**
   * The payload of the dead row {@code id}, as stored, or empty if no dead row has this id. Kept
   * apart from {@link #dead}: a payload may hold personal data, shown only when an operator asks
   * for one row.
   *
   * @throws UnsupportedOperationException if the store cannot read payloads (a store of your own)
   */
  default Optional<String> deadPayload(long id) {
    throw new UnsupportedOperationException("this outbox admin does not read payloads");
  }

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
