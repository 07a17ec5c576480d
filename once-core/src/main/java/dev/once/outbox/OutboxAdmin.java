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

  /** Longest message type, in characters, as the outbox stores it. */
  int MAX_TYPE_LENGTH = 200;

  /** Longest name of who paused a type, in characters. */
  int MAX_PAUSED_BY_LENGTH = 200;

  /** Longest reason for a pause, in characters. */
  int MAX_REASON_LENGTH = 1000;

  /**
   * Pauses a message type on every instance that shares this database: from the next claim, no
   * relay attempts its rows, until {@link #resume}. Its rows stay pending and due; no attempt is
   * counted and none turns dead while paused (a row already in flight when the pause commits
   * finishes that attempt); appends go on; a later row of an aggregate still waits behind an
   * earlier paused one, whatever its type. A dead row requeued during the pause waits too.
   *
   * @param type the message type, 1 to {@value #MAX_TYPE_LENGTH} characters
   * @param pausedBy who pauses it (kept and shown), 1 to {@value #MAX_PAUSED_BY_LENGTH} characters
   * @param reason why (kept and shown), at most {@value #MAX_REASON_LENGTH} characters; may be
   *     {@code null}
   * @return {@code true} if this call paused it; {@code false} if it was paused already (the first
   *     pause's time, author and reason stay)
   * @throws IllegalArgumentException if an argument is blank or too long
   * @throws UnsupportedOperationException if the store cannot pause (a store of your own)
   */
  default boolean pause(String type, String pausedBy, String reason) {
    throw new UnsupportedOperationException("this outbox admin does not pause types");
  }

  /**
   * Resumes a paused type: its due rows are claimed from the next claim on every instance.
   *
   * @return {@code true} if it was paused; {@code false} if not
   * @throws IllegalArgumentException if {@code type} is blank or too long
   * @throws UnsupportedOperationException if the store cannot pause (a store of your own)
   */
  default boolean resume(String type) {
    throw new UnsupportedOperationException("this outbox admin does not pause types");
  }

  /** The paused types, in type order, with who paused each, when and why. */
  default List<PausedType> paused() {
    return List.of();
  }

  /** Most archived rows one replay appends: a larger window is refused, to be split. */
  int MAX_REPLAY_ROWS = 100_000;

  /**
   * Replays delivered rows from the archive (the PostgreSQL store's archive mode): appends a copy
   * of each (same message id, type, aggregate, payload, trace context; due now) to the outbox, in
   * the order they were created, to be delivered through the normal transport. Consumers skip a
   * message they took (their inbox), a consumer added since takes it; with {@link
   * ReplayRequest#consumer()}, that consumer's inbox records of these messages are forgotten in the
   * same transaction, so it, and only it, takes them again. A message still in the outbox is not
   * appended twice. Recorded with its id, so a request sent twice does nothing the second time. One
   * transaction.
   *
   * <p>A message older than the consumers' inbox retention may have lost its inbox records: a
   * replay then applies it again for every consumer. Check that before replaying such a window.
   *
   * @return the replay's record; {@link Replay#repeated()} if the id was used before for the same
   *     request
   * @throws IllegalArgumentException if the window holds more than {@value #MAX_REPLAY_ROWS}
   *     archived rows (split it); nothing is recorded
   * @throws IllegalStateException if the id was used before for another request, or the store's
   *     archive is off
   * @throws UnsupportedOperationException if the store cannot replay (a store of your own)
   */
  default Replay replay(ReplayRequest request) {
    throw new UnsupportedOperationException("this outbox admin does not replay");
  }

  /** The latest replays, newest first, at most {@code limit} (1..1000). */
  default List<Replay> replays(int limit) {
    return List.of();
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
