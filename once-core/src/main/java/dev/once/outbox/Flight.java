package dev.once.outbox;

import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One claimed row on its way through a handler: who holds it ({@code claimId}), the thread running
 * its handler, and who decides its outcome. Exactly one of the worker ({@link #land()}) and the
 * time-out ({@link #expire()}) wins; the winner records the outcome and frees the worker's permit.
 * Thread-safe.
 */
final class Flight {
  private static final int RUNNING = 0;
  private static final int LANDED = 1;
  private static final int EXPIRED = 2;

  final OutboxRecord row;
  final UUID claimId;
  private final AtomicInteger state = new AtomicInteger(RUNNING);

  // Guarded by this: the worker's thread while it runs the handler, for the time-out to interrupt.
  private Thread thread;
  private Future<?> timeout;

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

  /** Whether the worker took the outcome. */
  boolean landed() {
    return state.get() == LANDED;
  }

  /** Whether neither has taken the outcome yet: the heartbeat renews only such rows. */
  boolean running() {
    return state.get() == RUNNING;
  }

  synchronized void boarded(Thread worker) {
    this.thread = worker;
  }

  /** The worker is done with the handler: a later time-out must not interrupt its next task. */
  synchronized void leave() {
    this.thread = null;
    if (timeout != null) {
      timeout.cancel(false);
    }
  }

  synchronized void timeout(Future<?> scheduled) {
    this.timeout = scheduled;
  }

  synchronized void interrupt() {
    if (thread != null) {
      thread.interrupt();
    }
  }
}
