package dev.once.inbox;

import dev.once.OnceException;
import java.sql.SQLException;

/**
 * The database failed while recording or purging inbox records; the consumer's transaction rolls
 * back and the message will be delivered again.
 */
public final class InboxException extends OnceException {
  private static final long serialVersionUID = 1L;

  public InboxException(String message, SQLException cause) {
    super(message, cause);
  }
}
