package dev.once.shop.clients;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The permits that lookups of unfamiliar API keys share, so that they hold at most that many pooled
 * connections however many arrive. A lookup waits for a permit for at most the configured time,
 * holding no connection, in arrival order (a fair semaphore); at most {@link #WAITERS_PER_PERMIT}
 * per permit wait at once, so a flood cannot hold every request thread either: a lookup past that
 * is refused at once. Thread-safe.
 */
final class LookupPermits {
  /** Lookups that may wait for a permit at once, per permit. */
  static final int WAITERS_PER_PERMIT = 16;

  private final Semaphore permits;
  private final int count;
  private final long waitNanos;
  private final AtomicInteger waiting = new AtomicInteger();

  /**
   * @param count how many lookups may hold a permit at once, at least 1
   * @param wait how long a lookup may wait for one; zero: not at all
   */
  LookupPermits(int count, Duration wait) {
    if (count < 1) {
      throw new IllegalArgumentException("at least one permit");
    }
    this.permits = new Semaphore(count, true);
    this.count = count;
    this.waitNanos = Math.max(0, wait.toNanos());
  }

  /** Takes a permit within the wait; false if none came in time or too many wait already. */
  boolean acquire() {
    if (permits.tryAcquire()) {
      return true;
    }
    if (waitNanos == 0) {
      return false;
    }
    try {
      if (waiting.incrementAndGet() > count * WAITERS_PER_PERMIT) {
        return false;
      }
      return permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** Gives back a permit that {@link #acquire()} took. */
  void release() {
    permits.release();
  }

  /** How many lookups may hold a permit at once. */
  int count() {
    return count;
  }

  /** How many lookups wait for a permit now. */
  int waiting() {
    return waiting.get();
  }
}
