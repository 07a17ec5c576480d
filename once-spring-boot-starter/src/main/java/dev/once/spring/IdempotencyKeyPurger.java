package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.PeriodicTask;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes expired idempotency keys in the background, each batch its own short transaction, so a
 * purge never holds many locks or a long transaction. It keeps pace with the writes: while batches
 * come back full it deletes the next one at once, each twice the last up to a bound ({@link
 * PeriodicTask#purgeInBatches}), for at most {@code maxRunTime} per run; a run that ends with keys
 * left is followed by the next after a second, not after the interval. Expiry is the database's
 * clock. Several instances may run at once: each batch skips rows another holds.
 */
final class IdempotencyKeyPurger implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyPurger.class);

  /** The default of {@code once.idempotency.purge.max-run-time}. */
  static final Duration DEFAULT_MAX_RUN_TIME = Duration.ofSeconds(10);

  private final IdempotencyEngine engine;
  private final DataSource dataSource;
  private final int batchSize;
  private final Duration maxRunTime;
  private final PeriodicTask task;

  IdempotencyKeyPurger(
      IdempotencyEngine engine, DataSource dataSource, Duration interval, int batchSize) {
    this(engine, dataSource, interval, batchSize, DEFAULT_MAX_RUN_TIME, OnceThreads.platform());
  }

  IdempotencyKeyPurger(
      IdempotencyEngine engine,
      DataSource dataSource,
      Duration interval,
      int batchSize,
      Duration maxRunTime,
      OnceThreads threads) {
    this.engine = engine;
    this.dataSource = dataSource;
    this.batchSize = batchSize;
    this.maxRunTime = maxRunTime;
    this.task =
        new PeriodicTask("once-idempotency-purge", interval, interval, this::runSafely, threads);
  }

  /**
   * Runs one purge now: batches until one comes back short, {@code maxRunTime} has passed, or the
   * purger is stopping.
   *
   * @return how many keys were deleted
   */
  int purgeNow() throws SQLException {
    return purgeRun().deleted();
  }

  private PeriodicTask.PurgeRun purgeRun() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      return PeriodicTask.purgeInBatches(
          batchSize, maxRunTime, task::stopping, size -> engine.purgeExpired(connection, size));
    }
  }

  private boolean runSafely() {
    try {
      PeriodicTask.PurgeRun run = purgeRun();
      if (run.deleted() > 0) {
        log.info(
            "Purged {} expired idempotency keys in {} batch(es){}",
            run.deleted(),
            run.batches(),
            run.behind() ? "; more are expired, the purge goes on in a second" : "");
      }
      return run.behind();
    } catch (SQLException | RuntimeException e) {
      log.warn("Purge of expired idempotency keys failed; it will run again", e);
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
