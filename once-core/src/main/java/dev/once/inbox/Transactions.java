package dev.once.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs work in one database transaction. The core's {@link #of(DataSource)} uses plain JDBC; a
 * framework supplies its own, so that the work joins the framework's transaction and a consumer's
 * repositories write through the same connection.
 */
@FunctionalInterface
public interface Transactions {

  /**
   * Runs {@code work} in a new transaction: commits if it returns, rolls back if it throws, and
   * rethrows what it threw.
   */
  <T> T inTransaction(Work<T> work) throws Exception;

  /** Work inside a transaction. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection tx) throws Exception;
  }

  /** Transactions on connections of {@code dataSource}, with auto-commit off. */
  static Transactions of(DataSource dataSource) {
    return new Transactions() {
      @Override
      public <T> T inTransaction(Work<T> work) throws Exception {
        try (Connection c = dataSource.getConnection()) {
          boolean autoCommit = c.getAutoCommit();
          c.setAutoCommit(false);
          try {
            T result = work.run(c);
            c.commit();
            return result;
          } catch (Exception | Error e) {
            try {
              c.rollback();
            } catch (SQLException rollback) {
              e.addSuppressed(rollback);
            }
            throw e;
          } finally {
            c.setAutoCommit(autoCommit);
          }
        }
      }
    };
  }
}
