package dev.once.outbox;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One claimed row on its way through a handler: who holds it ({@code claimId}) and who decides its
 * outcome. Exactly one of the worker ({@link #land()}) and the time-out ({@link #expire()}) wins;
 * the winner records the outcome. The thread and the time-out belong to the row's {@link Task}.
 * Thread-safe.
 */
final class Flight {
  private static final int RUNNING = 0;
  private static final int LANDED = 1;
  private static final int EXPIRED = 2;

  final OutboxRecord row;
  final UUID claimId;
  private final AtomicInteger state = new AtomicInteger(RUNNING);

  Flight(OutboxRecord row, UUID claimId) {
    this.row = row;
    this.claimId = claimId;
  }

  /** The worker took the outcome: {@code false} if the time-out had already taken it. */
  boolean land() {
    return state.compareAndSet(RUNNING, LANDED);
  }

  /** The time-out took the outcome: {@code false} if the worker had already taken it. */
  boolean expire() {
    return state.compareAndSet(RUNNING, EXPIRED);
  }

  /** Whether neither has taken the outcome yet: the heartbeat renews only such rows. */
  boolean running() {
    return state.get() == RUNNING;
  }
}
