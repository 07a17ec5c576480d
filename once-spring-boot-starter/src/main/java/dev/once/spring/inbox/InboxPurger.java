package dev.once.spring.inbox;

import dev.once.inbox.Inbox;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes inbox records older than the retention in the background, one bounded batch per
 * statement, oldest first, so a purge never holds many locks or a long transaction. Several
 * instances may run at once: each batch skips rows another holds. Thread-safe.
 */
public final class InboxPurger implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(InboxPurger.class);

  /** Upper bound of batches in one run, so one run cannot monopolise the database. */
  static final int MAX_BATCHES_PER_RUN = 100;

  private final Inbox inbox;
  private final Duration retention;
  private final Duration interval;
  private final int batchSize;
  private ScheduledExecutorService scheduler;

  public InboxPurger(Inbox inbox, Duration retention, Duration interval, int batchSize) {
    this.inbox = inbox;
    this.retention = retention;
    this.interval = interval;
    this.batchSize = batchSize;
  }

  /**
   * Runs one purge now: batches until one comes back short, at most {@value #MAX_BATCHES_PER_RUN}.
   *
   * @return how many records were deleted
   */
  public int purgeNow() {
    int total = 0;
    for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      int deleted = inbox.purge(retention, batchSize);
      total += deleted;
      if (deleted < batchSize) {
        break;
      }
    }
    return total;
  }

  private void runSafely() {
    try {
      int deleted = purgeNow();
      if (deleted > 0) {
        log.info("Purged {} inbox records older than {}", deleted, retention);
      }
    } catch (RuntimeException e) {
      log.warn("Purge of old inbox records failed; it will run again", e);
    }
  }

  @Override
  public synchronized void start() {
    if (scheduler != null) {
      return;
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "once-inbox-purge");
              t.setDaemon(true);
              return t;
            });
    long millis = interval.toMillis();
    scheduler.scheduleWithFixedDelay(this::runSafely, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        // Let a running batch end before the DataSource closes; one batch is one short statement.
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      scheduler = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return scheduler != null;
  }
}
