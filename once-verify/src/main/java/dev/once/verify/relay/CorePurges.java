package dev.once.verify.relay;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.inbox.InboxStore;
import dev.once.postgres.PostgresStores;
import dev.once.verify.harness.ShopLogin;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.IntUnaryOperator;

/**
 * One run of each of the shop's purges, executed from once-verify with once-core's own purge
 * statements ({@link IdempotencyEngine#purgeExpired} and {@link InboxStore#purge}) as the shop's
 * application role, at the shop's defaults: batches of 500 keys and of 1,000 records, each batch
 * its own statement and transaction, the next batch twice as large (at most ten times the first, at
 * most 10,000) while they come back full, until one comes back short or the run has taken its 10 s
 * (once.*.purge.max-run-time), as the starter's purgers run.
 */
final class CorePurges {
  /** The starter's default once.idempotency.purge.batch-size. */
  static final int KEY_BATCH = 500;

  /** The starter's default once.inbox.purge.batch-size. */
  static final int INBOX_BATCH = 1000;

  /** The starter's default once.inbox.retention. */
  static final Duration INBOX_RETENTION = Duration.ofDays(7);

  /** The starter's default max-run-time of both purges. */
  static final Duration MAX_RUN_TIME = Duration.ofSeconds(10);

  private final ShopLogin login;

  CorePurges(ShopLogin login) {
    this.login = login;
  }

  /** Deletes expired idempotency keys in one run; how many. */
  int keys() throws SQLException {
    IdempotencyEngine engine = IdempotencyEngine.builder(PostgresStores.idempotencyStore()).build();
    try (Connection connection = login.appDataSource().getConnection()) {
      connection.setAutoCommit(true);
      return inBatches(KEY_BATCH, size -> engine.purgeExpired(connection, size));
    }
  }

  /** Deletes inbox records older than the shop's retention in one run; how many. */
  int inbox() {
    InboxStore store = PostgresStores.inboxStore(login.appDataSource());
    return inBatches(INBOX_BATCH, size -> store.purge(INBOX_RETENTION, size));
  }

  /** Runs {@code batch} with a growing size until it deletes less than asked or time is up. */
  static int inBatches(int first, IntUnaryOperator batch) {
    int cap = Math.max(first, Math.min(10_000, first * 10));
    long end = System.nanoTime() + MAX_RUN_TIME.toNanos();
    int deleted = 0;
    for (int size = first; ; size = Math.min(cap, 2 * size)) {
      int n = batch.applyAsInt(size);
      deleted += n;
      if (n < size || System.nanoTime() >= end) {
        return deleted;
      }
    }
  }
}
