package dev.once.spring.outbox;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import java.sql.Connection;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends outbox messages in the current Spring transaction, so a message exists if and only if the
 * business writes around it commit. Inside an idempotent request that is the request's own
 * transaction. Once the transaction commits, the relay is woken (once per transaction, however many
 * messages it appended), so delivery does not wait for the next poll; a rollback wakes nothing.
 * Thread-safe.
 */
public final class TransactionalOutbox {
  private final Outbox outbox;
  private final DataSource dataSource;
  private final RelayWakeUp relay;

  public TransactionalOutbox(Outbox outbox, DataSource dataSource) {
    this(outbox, dataSource, RelayWakeUp.NONE);
  }

  public TransactionalOutbox(Outbox outbox, DataSource dataSource, RelayWakeUp relay) {
    this.outbox = outbox;
    this.dataSource = dataSource;
    this.relay = Objects.requireNonNull(relay, "relay");
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
      OutboxEntry entry = outbox.append(connection, message);
      wakeUpAfterCommit();
      return entry;
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  private void wakeUpAfterCommit() {
    if (relay == RelayWakeUp.NONE || !TransactionSynchronizationManager.isSynchronizationActive()) {
      return;
    }
    for (TransactionSynchronization registered :
        TransactionSynchronizationManager.getSynchronizations()) {
      if (registered instanceof WakeUpAfterCommit wake && wake.owner == this) {
        return;
      }
    }
    TransactionSynchronizationManager.registerSynchronization(new WakeUpAfterCommit(this));
  }

  /** Wakes the relay after the commit of a transaction that appended. */
  private static final class WakeUpAfterCommit implements TransactionSynchronization {
    private final TransactionalOutbox owner;

    WakeUpAfterCommit(TransactionalOutbox owner) {
      this.owner = owner;
    }

    @Override
    public void afterCommit() {
      owner.relay.wakeUp();
    }
  }
}
