package dev.once.spring.inbox;

import dev.once.inbox.Inbox;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.PeriodicTask;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes inbox records older than the retention (by the database's clock) in the background, each
 * batch one statement in its own short transaction, oldest first, so a purge never holds many locks
 * or a long transaction. It keeps pace with the writes: while batches come back full it deletes the
 * next one at once, each twice the last up to a bound ({@link PeriodicTask#purgeInBatches}), for at
 * most {@code maxRunTime} per run; a run that ends with records left is followed by the next after
 * a second, not after the interval. Several instances may run at once: each batch skips rows
 * another holds. Thread-safe.
 */
final class InboxPurger implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(InboxPurger.class);

  /** The default of {@code once.inbox.purge.max-run-time}. */
  static final Duration DEFAULT_MAX_RUN_TIME = Duration.ofSeconds(10);

  private final Inbox inbox;
  private final Duration retention;
  private final int batchSize;
  private final Duration maxRunTime;
  private final PeriodicTask task;

  InboxPurger(Inbox inbox, Duration retention, Duration interval, int batchSize) {
    this(inbox, retention, interval, batchSize, DEFAULT_MAX_RUN_TIME, OnceThreads.platform());
  }

  InboxPurger(
      Inbox inbox,
      Duration retention,
      Duration interval,
      int batchSize,
      Duration maxRunTime,
      OnceThreads threads) {
    this.inbox = inbox;
    this.retention = retention;
    this.batchSize = batchSize;
    this.maxRunTime = maxRunTime;
    this.task = new PeriodicTask("once-inbox-purge", interval, interval, this::runSafely, threads);
  }

  /**
   * Runs one purge now: batches until one comes back short, {@code maxRunTime} has passed, or the
   * purger is stopping.
   *
   * @return how many records were deleted
   */
  int purgeNow() {
    return purgeRun().deleted();
  }

  private PeriodicTask.PurgeRun purgeRun() {
    return PeriodicTask.purgeInBatches(
        batchSize, maxRunTime, task::stopping, size -> inbox.purge(retention, size));
  }

  private boolean runSafely() {
    try {
      PeriodicTask.PurgeRun run = purgeRun();
      if (run.deleted() > 0) {
        log.info(
            "Purged {} inbox records older than {} in {} batch(es){}",
            run.deleted(),
            retention,
            run.batches(),
            run.behind() ? "; more are old, the purge goes on in a second" : "");
      }
      return run.behind();
    } catch (RuntimeException e) {
      log.warn("Purge of old inbox records failed; it will run again", e);
      return false;
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
