package dev.once.idempotency;

import dev.once.OnceException;

/**
 * The {@code Idempotency-Key} of a request is missing, repeated or breaks the key grammar. Raised
 * before anything is looked up or executed; the message never echoes the offending value.
 */
public final class InvalidIdempotencyKeyException extends OnceException {
  private static final long serialVersionUID = 1L;

  /** Why the key was refused. */
  public enum Reason {
    /** No {@code Idempotency-Key} header. */
    MISSING,
    /** The header appeared more than once. */
    REPEATED,
    /** The value breaks the key grammar. */
    MALFORMED
  }

  private final Reason reason;

  public InvalidIdempotencyKeyException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
