package dev.once.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * {@link WalFlush} as one synchronous commit of a transaction that wrote WAL ({@link
 * InboxSql#WAL_FLUSH}), so its commit waits for the WAL flush past every earlier commit; callers
 * that arrive while one runs wait for the next, which started after them.
 */
final class CoalescedWalFlush implements WalFlush {
  /**
   * The commit that flushes: {@code synchronous_commit} on for this transaction whatever the
   * session's default, and an id assigned, so that the commit writes a record and waits for it.
   */
  static final String FLUSH = "SELECT set_config('synchronous_commit', 'on', true), txid_current()";

  private final DataSource dataSource;
  // A lock, not a monitor: a virtual thread waiting here for another's flush (a database round
  // trip) leaves its carrier free.
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition flushEnded = lock.newCondition();
  private long started;
  private long completed;
  private boolean running;

  CoalescedWalFlush(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  @Override
  public void awaitDurable() throws SQLException, InterruptedException {
    long number;
    lock.lockInterruptibly();
    try {
      // Flushes numbered above `started` start after this call: the first of them to complete
      // covers every commit seen before it.
      long needed = started + 1;
      while (true) {
        if (completed >= needed) {
          return;
        }
        if (!running) {
          running = true;
          number = ++started;
          break;
        }
        flushEnded.await();
      }
    } finally {
      lock.unlock();
    }
    boolean flushed = false;
    try {
      flush();
      flushed = true;
    } finally {
      lock.lock();
      try {
        running = false;
        if (flushed) {
          completed = Math.max(completed, number);
        }
        flushEnded.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void flush() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      String id = UUID.randomUUID().toString();
      try (PreparedStatement statement = c.prepareStatement(InboxSql.WAL_FLUSH)) {
        statement.setString(1, id);
        statement.setString(2, id);
        statement.execute();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }
}
