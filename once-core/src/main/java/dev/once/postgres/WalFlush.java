package dev.once.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Makes commits that did not wait for PostgreSQL's WAL flush durable before something outside the
 * database depends on them. A transaction that commits with {@code synchronous_commit = off} is
 * visible at once but can be lost in a crash of the server (up to three times {@code
 * wal_writer_delay}, 600 ms by default); the WAL is written in order, so once any later commit is
 * flushed, every commit before it is too. {@link #awaitDurable()} runs such a later commit and
 * waits for its flush: every commit this process saw before the call is then durable.
 *
 * <p>Its users: the Kafka publisher, before it sends a row that an asynchronously committed
 * transaction may have appended (a settlement or an in-process consumer's effect, with the relay's
 * {@code asyncCompletions}), so that no record on a topic names an event that a crash of the
 * database could take back; and the Kafka listeners, whose records' transactions commit
 * asynchronously (releasing their row locks without waiting for the disk), before a record's offset
 * may be committed. Concurrent callers share one flush: a caller waits for a flush that started
 * after it called, so one WAL flush serves every thread that asked meanwhile. Thread-safe.
 */
public interface WalFlush {

  /**
   * Returns once every commit that this process saw complete before the call is durable.
   *
   * @throws SQLException if the database failed; nothing is known to be durable
   * @throws InterruptedException if interrupted while waiting
   */
  void awaitDurable() throws SQLException, InterruptedException;

  /** A flush on connections of {@code dataSource}: one small synchronous commit per flush. */
  static WalFlush on(DataSource dataSource) {
    return new CoalescedWalFlush(dataSource);
  }

  /** Returns at once: for stores where every commit that matters is durable. */
  static WalFlush none() {
    return () -> {};
  }

  /**
   * Lets {@code tx}, an open transaction, commit without waiting for the WAL flush: call {@link
   * #awaitDurable()} before anything outside the database depends on its commit.
   */
  static void commitAsynchronously(Connection tx) throws SQLException {
    try (Statement statement = tx.createStatement()) {
      statement.execute("SELECT set_config('synchronous_commit', 'off', true)");
    }
  }
}
