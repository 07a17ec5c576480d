package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes expired idempotency keys in the background, one bounded batch per transaction, so a purge
 * never holds many locks or a long transaction. Several instances may run at once: each batch skips
 * rows another holds.
 */
public final class IdempotencyKeyPurger implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyPurger.class);

  /** Upper bound of batches in one run, so one run cannot monopolise the database. */
  static final int MAX_BATCHES_PER_RUN = 100;

  private final IdempotencyEngine engine;
  private final DataSource dataSource;
  private final Duration interval;
  private final int batchSize;
  private ScheduledExecutorService scheduler;

  public IdempotencyKeyPurger(
      IdempotencyEngine engine, DataSource dataSource, Duration interval, int batchSize) {
    this.engine = engine;
    this.dataSource = dataSource;
    this.interval = interval;
    this.batchSize = batchSize;
  }

  /**
   * Runs one purge now: batches until one comes back short, at most {@value #MAX_BATCHES_PER_RUN}.
   *
   * @return how many keys were deleted
   */
  public int purgeNow() throws SQLException {
    int total = 0;
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        int deleted = engine.purgeExpired(connection, batchSize);
        total += deleted;
        if (deleted < batchSize) {
          break;
        }
      }
    }
    return total;
  }

  private void runSafely() {
    try {
      int deleted = purgeNow();
      if (deleted > 0) {
        log.info("Purged {} expired idempotency keys", deleted);
      }
    } catch (SQLException | RuntimeException e) {
      log.warn("Purge of expired idempotency keys failed; it will run again", e);
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
              Thread t = new Thread(r, "once-idempotency-purge");
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
