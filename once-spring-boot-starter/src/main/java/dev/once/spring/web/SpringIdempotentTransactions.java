package dev.once.spring.web;

import dev.once.idempotency.IdempotentTransactions;
import dev.once.idempotency.IdempotentTransactions.NetworkTimeout;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The request loop's transactions ({@link IdempotentTransactions}) run by the application's {@link
 * PlatformTransactionManager}: each a new transaction ({@code REQUIRES_NEW}), so that every write
 * of the handler that joins the Spring transaction (JPA, {@code JdbcTemplate}, ...) commits with
 * the key's answer or not at all, and the synchronizations the handler registers complete with it.
 *
 * <p>The key's answer is written as the transaction's last write. When the transaction manager is
 * Spring's JDBC one on Once's DataSource, which commits by {@code Connection.commit()} alone, it
 * travels with the {@code COMMIT} in one round trip, as the last {@code beforeCommit} callback
 * ({@link AnswerWithCommit}); otherwise it is written just before the manager commits.
 */
final class SpringIdempotentTransactions implements IdempotentTransactions {
  private final PlatformTransactionManager transactions;
  private final DataSource dataSource;
  private final boolean answerWithCommit;

  SpringIdempotentTransactions(PlatformTransactionManager transactions, DataSource dataSource) {
    this.transactions = transactions;
    this.dataSource = dataSource;
    // Spring's JDBC transaction managers commit by Connection.commit() alone, so the answer and
    // the COMMIT can travel in one round trip without anything of the commit being skipped.
    this.answerWithCommit =
        transactions instanceof DataSourceTransactionManager jdbc
            && jdbc.getDataSource() == dataSource;
  }

  @Override
  public Transaction begin() {
    DefaultTransactionDefinition definition =
        new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    definition.setName("once-idempotent-request");
    return new SpringTransaction(transactions.getTransaction(definition));
  }

  private final class SpringTransaction implements Transaction {
    private final TransactionStatus status;
    private boolean restoring;

    SpringTransaction(TransactionStatus status) {
      this.status = status;
    }

    /**
     * The transaction's connection. The first call also arranges for its network timeout, which the
     * claim bounds ({@code IdempotencyEngine#claim}), to be set back as it was when the transaction
     * completes, before Spring hands the connection back to its pool.
     */
    @Override
    public Connection connection() {
      Connection connection = DataSourceUtils.getConnection(dataSource);
      if (!restoring && TransactionSynchronizationManager.isSynchronizationActive()) {
        restoring = true;
        TransactionSynchronizationManager.registerSynchronization(
            new NetworkTimeoutRestore(NetworkTimeout.of(connection)));
      }
      return connection;
    }

    @Override
    public boolean isRollbackOnly() {
      return status.isRollbackOnly();
    }

    @Override
    public void commit(AnswerWrite answer) {
      Connection connection = connection();
      if (answerWithCommit && TransactionSynchronizationManager.isSynchronizationActive()) {
        TransactionSynchronizationManager.registerSynchronization(
            new AnswerWithCommit(answer, connection));
      } else {
        answer.write(connection);
      }
      transactions.commit(status);
    }

    @Override
    public void rollback() {
      if (!status.isCompleted()) {
        transactions.rollback(status);
      }
    }
  }

  /**
   * Sets the connection's network timeout back as it was before the request, after the transaction
   * completed (committed or rolled back) and before the transaction manager releases the
   * connection.
   */
  private record NetworkTimeoutRestore(NetworkTimeout saved) implements TransactionSynchronization {
    @Override
    public void afterCompletion(int status) {
      saved.restore();
    }
  }

  /**
   * Stores the answer and commits in one round trip, as the last step before Spring's commit: it is
   * the last synchronization to run {@code beforeCommit} (lowest precedence, registered after the
   * handler's), so every other {@code beforeCommit}, which may still write, runs inside the
   * transaction. Spring's own commit then finds the transaction over and has nothing to send; its
   * {@code beforeCompletion} and {@code afterCommit} callbacks run as usual. A failure (the key
   * taken, the commit refused) is thrown out of {@code beforeCommit}, so Spring rolls back.
   */
  private record AnswerWithCommit(AnswerWrite answer, Connection connection)
      implements TransactionSynchronization {
    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void beforeCommit(boolean readOnly) {
      answer.writeAndCommit(connection);
    }
  }
}
