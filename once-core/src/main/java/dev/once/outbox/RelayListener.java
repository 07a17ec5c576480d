package dev.once.outbox;

import java.time.Duration;
import java.time.Instant;

/**
 * Hooks into the relay's decisions, for metrics and logs. Every method has a no-op default; they
 * are called on relay threads after the row's new state is committed, and must be fast and must not
 * throw (what they throw is logged and ignored).
 */
public interface RelayListener {

  /** A listener that does nothing. */
  RelayListener NONE = new RelayListener() {};

  /** A claim returned {@code rows} rows (at least one) of the {@code limit} it asked for. */
  default void claimed(int rows, int limit) {}

  /** The row is done; {@code sinceCommit} is the time from its append to now. */
  default void delivered(OutboxRecord message, Duration sinceCommit) {}

  /**
   * The attempt failed and the row will be tried again at about {@code nextAttemptAt}: the backoff
   * added to the database's clock (the store's time), estimated here from this JVM's clock and the
   * measured skew.
   */
  default void retried(OutboxRecord message, String reason, Instant nextAttemptAt) {}

  /** The row turned {@code dead}: a permanent failure or its last attempt failed. */
  default void dead(OutboxRecord message, String reason) {}

  /**
   * The relay handled the row but had lost its claim when it tried to record the outcome (its lease
   * ran out and another relay took the row): the outcome was discarded.
   */
  default void claimLost(OutboxRecord message) {}
}
