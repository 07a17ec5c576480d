package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.testing.TestDatabase;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link WalFlush}: after {@code awaitDurable} returns, the WAL is flushed past every commit made
 * before the call, asynchronous ones included; concurrent callers share flushes; a failed flush
 * reaches its caller and leaves no waiter hanging.
 */
@Timeout(60)
class WalFlushTest {

  @Test
  void anAsynchronousCommitIsFlushedOnceAwaitDurableReturns() throws Exception {
    DataSource db = TestDatabase.dataSource();
    String committedAt;
    try (Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      WalFlush.commitAsynchronously(c);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TEMP TABLE IF NOT EXISTS wal_flush_probe (x int)");
        s.execute("SELECT txid_current()");
      }
      c.commit();
      committedAt = single(c, "SELECT pg_current_wal_insert_lsn()::text");
    }

    WalFlush.on(db).awaitDurable();

    try (Connection c = db.getConnection()) {
      assertThat(
              single(
                  c, "SELECT (pg_current_wal_flush_lsn() >= '" + committedAt + "'::pg_lsn)::text"))
          .as(
              "the WAL is flushed past the asynchronous commit at %s: flush %s, insert %s",
              committedAt,
              single(c, "SELECT pg_current_wal_flush_lsn()::text"),
              single(c, "SELECT pg_current_wal_insert_lsn()::text"))
          .isEqualTo("true");
    }
  }

  @Test
  void callersThatArriveDuringAFlushShareTheNextOne() throws Exception {
    CountDownLatch firstFlushHeld = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    AtomicInteger flushes = new AtomicInteger();
    DataSource db =
        new CountingDataSource(TestDatabase.dataSource()) {
          @Override
          public Connection getConnection() throws SQLException {
            if (flushes.incrementAndGet() == 1) {
              firstFlushHeld.countDown();
              try {
                releaseFirst.await();
              } catch (InterruptedException e) {
                throw new SQLException(e);
              }
            }
            return super.getConnection();
          }
        };
    WalFlush flush = WalFlush.on(db);
    List<Thread> callers = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    Runnable call =
        () -> {
          try {
            flush.awaitDurable();
          } catch (Exception e) {
            failures.add(e);
          }
        };
    Thread first = new Thread(call, "first");
    first.start();
    assertThat(firstFlushHeld.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(call, "later-" + i);
      callers.add(t);
      t.start();
    }
    // Every later caller waits for the flush in progress to end (it started before them).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (callers.stream().anyMatch(t -> t.getState() != Thread.State.WAITING)) {
      assertThat(System.nanoTime()).as("callers waiting").isLessThan(deadline);
      Thread.onSpinWait();
    }
    releaseFirst.countDown();
    first.join(10_000);
    for (Thread t : callers) {
      t.join(10_000);
    }

    assertThat(failures).isEmpty();
    // The first flush, then one more that started after all eight arrived and serves them all.
    assertThat(flushes).hasValue(2);
  }

  @Test
  void aFailedFlushReachesItsCallerAndTheNextCallTriesAgain() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    DataSource failing =
        new CountingDataSource(TestDatabase.dataSource()) {
          @Override
          public Connection getConnection() throws SQLException {
            attempts.incrementAndGet();
            throw new SQLException("connection refused", "08001");
          }
        };
    WalFlush flush = WalFlush.on(failing);

    assertThatThrownBy(flush::awaitDurable).isInstanceOf(SQLException.class);
    assertThatThrownBy(flush::awaitDurable).isInstanceOf(SQLException.class);
    assertThat(attempts).hasValue(2);
  }

  private static String single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** Counts the connections taken: one per flush. */
  private static class CountingDataSource implements DataSource {
    private final DataSource delegate;
    final AtomicInteger connections = new AtomicInteger();

    CountingDataSource(DataSource delegate) {
      this.delegate = delegate;
    }

    @Override
    public Connection getConnection() throws SQLException {
      connections.incrementAndGet();
      return delegate.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      return delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
      return delegate.isWrapperFor(iface);
    }
  }
}
