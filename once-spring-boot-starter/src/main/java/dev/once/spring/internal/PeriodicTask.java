package dev.once.spring.internal;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;

/**
 * One background job of the starter (a purge, a gauge refresh) on a daemon thread of its own (a
 * virtual one with {@code spring.threads.virtual.enabled}: {@link OnceThreads}). A job that reports
 * it is behind (a purge that ended its run with work left) runs again after {@link
 * #PAUSE_WHILE_BEHIND}; otherwise the next run starts {@code interval} after this one ended. {@link
 * #stop()} lets a running pass end (each is one short statement, or a few: a purge checks {@link
 * #stopping()} between its batches) before the DataSource closes. The job must catch and log its
 * own failures. Thread-safe.
 */
public final class PeriodicTask {
  /** The pause before the next run of a job that is behind: the database gets a breather. */
  public static final Duration PAUSE_WHILE_BEHIND = Duration.ofSeconds(1);

  /** How much larger each full batch of a purge makes the next one. */
  static final int GROWTH = 2;

  /** The largest batch a purge grows to, as a multiple of its configured batch size. */
  public static final int MAX_BATCH_FACTOR = 10;

  /** The largest batch a purge grows to, whatever its configured batch size. */
  public static final int MAX_BATCH = 10_000;

  private final String threadName;
  private final Duration initialDelay;
  private final Duration interval;
  private final BooleanSupplier job;
  private final ThreadFactory threads;
  private ScheduledExecutorService scheduler;
  private volatile boolean stopping;

  /** A job that is never behind: it runs every {@code interval}, on a thread of {@code threads}. */
  public PeriodicTask(
      String threadName,
      Duration initialDelay,
      Duration interval,
      Runnable job,
      OnceThreads threads) {
    this(
        threadName,
        initialDelay,
        interval,
        () -> {
          job.run();
          return false;
        },
        threads);
  }

  /**
   * @param job runs once; answers {@code true} if it is behind (it stopped with work left), which
   *     brings its next run forward to {@link #PAUSE_WHILE_BEHIND}
   * @param threads where its thread comes from (platform, or virtual: {@link OnceThreads})
   */
  public PeriodicTask(
      String threadName,
      Duration initialDelay,
      Duration interval,
      BooleanSupplier job,
      OnceThreads threads) {
    this.threadName = threadName;
    this.initialDelay = initialDelay;
    this.interval = interval;
    this.job = job;
    this.threads = threads.factory();
  }

  /** Starts the schedule. Idempotent. */
  public synchronized void start() {
    if (scheduler != null) {
      return;
    }
    stopping = false;
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = threads.newThread(r);
              t.setName(threadName);
              if (!t.isDaemon()) {
                t.setDaemon(true);
              }
              return t;
            });
    schedule(scheduler, initialDelay);
  }

  private void schedule(ScheduledExecutorService on, Duration delay) {
    try {
      on.schedule(() -> runAndReschedule(on), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // stopped meanwhile
    }
  }

  private void runAndReschedule(ScheduledExecutorService on) {
    boolean behind = false;
    try {
      behind = job.getAsBoolean();
    } finally {
      if (!stopping) {
        schedule(on, behind ? PAUSE_WHILE_BEHIND : interval);
      }
    }
  }

  /** Stops the schedule, waiting up to 10 s for a running pass. Idempotent. */
  public synchronized void stop() {
    stopping = true;
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

  /** Whether {@link #stop()} was called: a running purge ends after its current batch. */
  public boolean stopping() {
    return stopping || Thread.currentThread().isInterrupted();
  }

  /** What one purge run deleted, and whether it stopped with work left. */
  public record PurgeRun(int deleted, int batches, boolean behind) {}

  /**
   * One purge run that keeps pace with the writes: runs {@code batch} (which deletes at most the
   * given number of rows, in a short transaction of its own, and says how many) again at once while
   * batches come back full, each full batch doubling the next one's size, from {@code batchSize} up
   * to {@value #MAX_BATCH_FACTOR} times it (at most {@value #MAX_BATCH} rows). The run ends when a
   * batch comes back short (nothing left), when {@code maxRunTime} has passed, or when {@code
   * stopping} says so (shutdown); in the last two cases it is {@linkplain PurgeRun#behind()
   * behind}.
   */
  public static PurgeRun purgeInBatches(
      int batchSize, Duration maxRunTime, BooleanSupplier stopping, IntUnaryOperator batch) {
    int largest = Math.max(batchSize, Math.min(MAX_BATCH, batchSize * MAX_BATCH_FACTOR));
    long deadline = System.nanoTime() + maxRunTime.toNanos();
    int size = batchSize;
    int total = 0;
    int batches = 0;
    while (true) {
      int deleted = batch.applyAsInt(size);
      total += deleted;
      batches++;
      if (deleted < size) {
        return new PurgeRun(total, batches, false);
      }
      if (stopping.getAsBoolean() || System.nanoTime() - deadline >= 0) {
        return new PurgeRun(total, batches, true);
      }
      size = Math.min(largest, size * GROWTH);
    }
  }
}
