package dev.once.spring.inbox;

import dev.once.inbox.Inbox;
import dev.once.spring.PeriodicTask;
import java.time.Duration;
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

  private final Inbox inbox;
  private final Duration retention;
  private final int batchSize;
  private final PeriodicTask task;

  public InboxPurger(Inbox inbox, Duration retention, Duration interval, int batchSize) {
    this.inbox = inbox;
    this.retention = retention;
    this.batchSize = batchSize;
    this.task = new PeriodicTask("once-inbox-purge", interval, interval, this::runSafely);
  }

  /**
   * Runs one purge now: batches until one comes back short, at most {@value
   * PeriodicTask#MAX_BATCHES_PER_RUN}.
   *
   * @return how many records were deleted
   */
  public int purgeNow() {
    return PeriodicTask.purgeInBatches(batchSize, () -> inbox.purge(retention, batchSize));
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
  public void start() {
    task.start();
  }

  @Override
  public void stop() {
    task.stop();
  }

  @Override
  public boolean isRunning() {
    return task.isRunning();
  }
}
