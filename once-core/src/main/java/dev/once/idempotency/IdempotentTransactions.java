package dev.once.idempotency;

import java.sql.Connection;
import javax.sql.DataSource;

/**
 * Where {@link IdempotencyEngine#execute} gets its transactions: the one seam between the request
 * loop and whoever manages transactions. {@link #jdbc(DataSource)} gives plain JDBC transactions; a
 * framework adapter (Once's Spring Boot starter drives Spring's {@code PlatformTransactionManager})
 * implements it so that the handler's own writes, through whatever API, join the transaction that
 * holds the key.
 *
 * <p>The loop begins at most three transactions per request, one after the other, never two at
 * once: the claim with the handler, the second transaction that stores a refusal, and the read-only
 * one that learns what the key holds after losing it. Each is new and independent of any
 * transaction the calling thread may already have.
 */
public interface IdempotentTransactions {

  /**
   * Begins a new, independent transaction.
   *
   * @throws RuntimeException if no transaction can be begun (no connection): the loop answers
   *     {@link IdempotentOutcome.Unavailable}
   */
  Transaction begin();

  /** Plain JDBC transactions on {@code dataSource}: each is one connection with auto-commit off. */
  static IdempotentTransactions jdbc(DataSource dataSource) {
    return new JdbcTransactions(dataSource);
  }

  /** One transaction, used by one thread. */
  interface Transaction {
    /** The transaction's connection to Once's database, on which the key is claimed and stored. */
    Connection connection();

    /**
     * Whether something inside the transaction marked it to roll back only (a framework's
     * "rollback-only" flag); then the loop rolls back instead of storing a success. Plain JDBC
     * transactions never are.
     */
    boolean isRollbackOnly();

    /**
     * Stores the answer with {@code answer}, as the transaction's last write, and commits. An
     * implementation that commits with {@link Connection#commit()} alone may use {@link
     * AnswerWrite#writeAndCommit}, which sends the answer and the {@code COMMIT} in one round trip,
     * once everything else that must run before the commit has run; otherwise {@link
     * AnswerWrite#write} and then its own commit. Whatever {@code answer} throws ({@link
     * KeyTakenException} among it) must propagate, with nothing committed.
     *
     * @throws KeyTakenException the key is another request's: nothing was committed
     * @throws RuntimeException the commit failed, its outcome is unknown; the loop rolls back
     */
    void commit(AnswerWrite answer);

    /**
     * Ends the transaction without committing, and releases its connection; does nothing if the
     * transaction is over already (committed, rolled back, or aborted by a failed commit). May
     * throw if the connection is gone: the database rolls back on its own then.
     */
    void rollback();
  }

  /** The key's one write, with the request's answer, handed to {@link Transaction#commit}. */
  interface AnswerWrite {
    /**
     * {@link IdempotencyEngine#complete}: stores the answer in the transaction of {@code
     * connection}.
     */
    void write(Connection connection);

    /**
     * {@link IdempotencyEngine#completeAndCommit}: stores the answer and commits {@code
     * connection}'s transaction, in one round trip.
     */
    void writeAndCommit(Connection connection);
  }

  /**
   * A connection's network timeout as a transaction found it, to be set back when the transaction
   * ends: the claim bounds it ({@link IdempotencyEngine#claim}), and a connection must go back to
   * its pool as it came. Every {@link Transaction} implementation takes one when it first gets its
   * connection and {@link #restore()}s it when it ends, before the connection is released.
   */
  final class NetworkTimeout {
    private final Connection connection;
    private final int millis;

    private NetworkTimeout(Connection connection, int millis) {
      this.connection = connection;
      this.millis = millis;
    }

    /** {@code connection}'s network timeout now (nothing to restore where the driver has none). */
    public static NetworkTimeout of(Connection connection) {
      return new NetworkTimeout(connection, NetworkTimeouts.current(connection));
    }

    /**
     * Sets the connection's network timeout back, if it changed; a failure (a connection already
     * broken, which its pool discards) is ignored.
     */
    public void restore() {
      NetworkTimeouts.restore(connection, millis);
    }
  }
}
