package dev.once.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * {@link IdempotentTransactions} on plain JDBC: a connection of the DataSource per transaction,
 * with auto-commit off until the transaction ends and the connection is closed (returned to its
 * pool with its auto-commit mode and its network timeout, which the claim bounds, as they were).
 */
final class JdbcTransactions implements IdempotentTransactions {
  private final DataSource dataSource;

  JdbcTransactions(DataSource dataSource) {
    if (dataSource == null) {
      throw new IllegalArgumentException("dataSource must not be null");
    }
    this.dataSource = dataSource;
  }

  @Override
  public Transaction begin() {
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      throw new IdempotencyStoreException("Could not get a connection.", e);
    }
    try {
      boolean autoCommit = connection.getAutoCommit();
      NetworkTimeout networkTimeout = NetworkTimeout.of(connection);
      connection.setAutoCommit(false);
      return new JdbcTransaction(connection, autoCommit, networkTimeout);
    } catch (SQLException e) {
      closeQuietly(connection, e);
      throw new IdempotencyStoreException("Could not begin a transaction.", e);
    }
  }

  private static void closeQuietly(Connection connection, Exception failure) {
    try {
      connection.close();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  private static final class JdbcTransaction implements Transaction {
    private final Connection connection;
    private final boolean autoCommit;
    private final NetworkTimeout networkTimeout;
    private boolean over;

    JdbcTransaction(Connection connection, boolean autoCommit, NetworkTimeout networkTimeout) {
      this.connection = connection;
      this.autoCommit = autoCommit;
      this.networkTimeout = networkTimeout;
    }

    @Override
    public Connection connection() {
      return connection;
    }

    @Override
    public boolean isRollbackOnly() {
      return false;
    }

    @Override
    public void commit(AnswerWrite answer) {
      if (over) {
        throw new IllegalStateException("the transaction is over");
      }
      answer.writeAndCommit(connection);
      over = true;
      release();
    }

    @Override
    public void rollback() {
      if (over) {
        return;
      }
      over = true;
      try {
        connection.rollback();
      } catch (SQLException e) {
        throw new IdempotencyStoreException("Could not roll back.", e);
      } finally {
        release();
      }
    }

    /**
     * Back to the pool as it came: its auto-commit mode and network timeout restored, then closed.
     * The transaction is over by then, so a failure here (a broken connection) changes nothing of
     * its outcome and is ignored; the pool discards such a connection.
     */
    private void release() {
      networkTimeout.restore();
      try {
        connection.setAutoCommit(autoCommit);
      } catch (SQLException e) {
        // ignored: see above
      }
      try {
        connection.close();
      } catch (SQLException e) {
        // ignored: see above
      }
    }
  }
}
