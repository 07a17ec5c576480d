package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
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

  private final IdempotencyEngine engine;
  private final DataSource dataSource;
  private final int batchSize;
  private final PeriodicTask task;

  public IdempotencyKeyPurger(
      IdempotencyEngine engine, DataSource dataSource, Duration interval, int batchSize) {
    this.engine = engine;
    this.dataSource = dataSource;
    this.batchSize = batchSize;
    this.task = new PeriodicTask("once-idempotency-purge", interval, interval, this::runSafely);
  }

  /**
   * Runs one purge now: batches until one comes back short, at most {@value
   * PeriodicTask#MAX_BATCHES_PER_RUN}.
   *
   * @return how many keys were deleted
   */
  public int purgeNow() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      return PeriodicTask.purgeInBatches(
          batchSize, () -> engine.purgeExpired(connection, batchSize));
    }
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
