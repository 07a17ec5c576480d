package dev.once.spring;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * One background job of the starter (a purge, a gauge refresh) on a daemon thread of its own, run
 * with a fixed delay between runs. {@link #stop()} lets a running pass end (each is one short
 * statement, or a few) before the DataSource closes. The job must catch and log its own failures:
 * an escaping exception would end the schedule. Thread-safe.
 */
public final class PeriodicTask {
  /** Upper bound of batches in one purge pass, so one pass cannot monopolise the database. */
  public static final int MAX_BATCHES_PER_RUN = 100;

  private final String threadName;
  private final Duration initialDelay;
  private final Duration interval;
  private final Runnable job;
  private ScheduledExecutorService scheduler;

  public PeriodicTask(String threadName, Duration initialDelay, Duration interval, Runnable job) {
    this.threadName = threadName;
    this.initialDelay = initialDelay;
    this.interval = interval;
    this.job = job;
  }

  /** Starts the schedule. Idempotent. */
  public synchronized void start() {
    if (scheduler != null) {
      return;
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    scheduler.scheduleWithFixedDelay(
        job, initialDelay.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the schedule, waiting up to 10 s for a running pass. Idempotent. */
  public synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      scheduler = null;
    }
  }

  public synchronized boolean isRunning() {
    return scheduler != null;
  }

  /**
   * Runs {@code batch} (which deletes at most {@code batchSize} rows and says how many) until one
   * comes back short, at most {@value #MAX_BATCHES_PER_RUN} times.
   *
   * @return how many rows were deleted in all
   */
  public static int purgeInBatches(int batchSize, IntSupplier batch) {
    int total = 0;
    for (int pass = 0; pass < MAX_BATCHES_PER_RUN; pass++) {
      int deleted = batch.getAsInt();
      total += deleted;
      if (deleted < batchSize) {
        break;
      }
    }
    return total;
  }
}
