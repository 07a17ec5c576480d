package dev.once.client;

import java.time.Duration;

/**
 * Waits between attempts. The default sleeps the calling thread; tests inject one that advances a
 * test clock instead, so that no test sleeps.
 */
@FunctionalInterface
public interface Sleeper {
  /** Sleeps the calling thread. */
  Sleeper SYSTEM =
      duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);

  /**
   * Waits {@code duration}.
   *
   * @throws InterruptedException if the thread is interrupted meanwhile
   */
  void sleep(Duration duration) throws InterruptedException;
}
