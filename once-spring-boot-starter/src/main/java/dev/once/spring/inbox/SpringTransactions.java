package dev.once.spring.inbox;

import dev.once.inbox.Transactions;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link Transactions} on the application's transaction manager: each unit of work runs in a new
 * Spring transaction (REQUIRES_NEW, so a caller's transaction never swallows an inbox record), and
 * the connection it receives is the transaction's own. A consumer that writes through JdbcClient,
 * JdbcTemplate or any DataSourceUtils-aware code therefore writes in the same transaction as the
 * inbox record. Thread-safe.
 */
final class SpringTransactions implements Transactions {
  private final TransactionTemplate template;
  private final DataSource dataSource;

  /**
   * @param transactions must manage {@code dataSource}, or the record and the effect would commit
   *     separately
   */
  SpringTransactions(PlatformTransactionManager transactions, DataSource dataSource) {
    this.template = new TransactionTemplate(transactions);
    this.template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    this.dataSource = dataSource;
  }

  @Override
  public <T> T inTransaction(Work<T> work) throws Exception {
    try {
      return template.execute(
          status -> {
            Connection connection = DataSourceUtils.getConnection(dataSource);
            try {
              return work.run(connection);
            } catch (RuntimeException e) {
              throw e;
            } catch (Exception e) {
              throw new CheckedFailure(e);
            } finally {
              DataSourceUtils.releaseConnection(connection, dataSource);
            }
          });
    } catch (CheckedFailure e) {
      throw e.checked;
    }
  }

  /** Carries a checked exception through the template, which rolls back on unchecked ones. */
  private static final class CheckedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Exception checked;

    CheckedFailure(Exception checked) {
      super(checked.toString(), checked, false, false);
      this.checked = checked;
    }
  }
}
