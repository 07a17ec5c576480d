package dev.once.spring.outbox;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends outbox messages in the current Spring transaction, so a message exists if and only if the
 * business writes around it commit. Inside an idempotent request that is the request's own
 * transaction. Thread-safe.
 */
public final class TransactionalOutbox {
  private final Outbox outbox;
  private final DataSource dataSource;

  public TransactionalOutbox(Outbox outbox, DataSource dataSource) {
    this.outbox = outbox;
    this.dataSource = dataSource;
  }

  /**
   * Appends {@code message} in the current transaction.
   *
   * @throws IllegalStateException if no Spring transaction is active: a message written outside a
   *     transaction could be delivered for an effect that never committed
   */
  public OutboxEntry append(OutboxMessage message) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "TransactionalOutbox.append needs an active transaction (e.g. @Transactional)");
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      return outbox.append(connection, message);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }
}
