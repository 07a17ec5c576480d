package dev.once.idempotency;

import dev.once.OnceException;
import java.sql.SQLException;

/**
 * The database failed while claiming, completing or purging a key. The caller's transaction must be
 * rolled back; nothing of the request is committed, so a retry is safe.
 */
public final class IdempotencyStoreException extends OnceException {
  private static final long serialVersionUID = 1L;

  private final String sqlState;

  public IdempotencyStoreException(String message, SQLException cause) {
    super(message, cause);
    this.sqlState = cause.getSQLState();
  }

  /** The SQLState of the failure, or {@code null}. */
  public String sqlState() {
    return sqlState;
  }
}
