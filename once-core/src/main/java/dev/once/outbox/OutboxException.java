package dev.once.outbox;

import dev.once.OnceException;
import java.sql.SQLException;

/**
 * The database failed while writing or reading the outbox; the caller's transaction must roll back.
 */
public final class OutboxException extends OnceException {
  private static final long serialVersionUID = 1L;

  public OutboxException(String message, SQLException cause) {
    super(message, cause);
  }
}
