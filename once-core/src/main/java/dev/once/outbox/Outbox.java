package dev.once.outbox;

import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The write side of the transactional outbox: appends a message in the caller's transaction, so it
 * exists if and only if the business effect that produced it commits. Nothing is sent here;
 * delivery happens after commit. Implementations are thread-safe.
 *
 * <p>Appends for one aggregate id are serialized: the second transaction waits until the first
 * commits or rolls back, so that row ids per aggregate are in commit order and the relay delivers
 * them in that order. Keep transactions that append short. Unrelated aggregates whose ids share a
 * 32-bit hash wait for each other too, rarely and only until the first transaction ends.
 */
public interface Outbox {

  /**
   * Appends a message, due at once, in the caller's transaction.
   *
   * @param tx a connection inside the business transaction (auto-commit off)
   * @throws IllegalStateException if {@code tx} is in auto-commit mode
   * @throws OutboxException if the database fails
   */
  OutboxEntry append(Connection tx, OutboxMessage message);

  /**
   * Appends {@code messages} in order, in the caller's transaction, each exactly as {@link #append}
   * appends it, in as few round trips as the store allows (one with PostgreSQL): for a batch
   * consumer or handler that publishes an event per message it applied.
   *
   * @return the entries, in the order of {@code messages}
   * @throws IllegalStateException if {@code tx} is in auto-commit mode
   * @throws OutboxException if the database fails
   */
  default List<OutboxEntry> appendAll(Connection tx, List<OutboxMessage> messages) {
    List<OutboxEntry> entries = new ArrayList<>(messages.size());
    for (OutboxMessage message : messages) {
      entries.add(append(tx, message));
    }
    return entries;
  }

  /**
   * The outbox on {@code store}: refuses connections in auto-commit mode, gives each message a
   * random {@link java.util.UUID} as its message id; the store stamps it with the database's clock.
   */
  static Outbox of(OutboxStore store) {
    return new DefaultOutbox(Objects.requireNonNull(store, "store"));
  }

  /**
   * As {@link #of(OutboxStore)}; {@code clock} is ignored.
   *
   * @deprecated rows are stamped with the database's clock: use {@link #of(OutboxStore)}
   */
  @Deprecated(forRemoval = true)
  static Outbox of(OutboxStore store, Clock clock) {
    return of(store);
  }
}
