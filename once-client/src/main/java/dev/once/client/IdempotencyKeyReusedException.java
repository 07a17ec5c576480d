package dev.once.client;

/**
 * The server answered 422 with problem type {@code …/idempotency-key-reused}: the key was first
 * used for another request, so this one was not executed. A bug of the caller (one key for two
 * operations); never retried. The message names the key, never a body.
 */
public final class IdempotencyKeyReusedException extends OnceClientException {
  private static final long serialVersionUID = 1L;
  private final int attempts;

  IdempotencyKeyReusedException(String key, int attempts) {
    super(
        "Idempotency-Key "
            + key
            + " was already used for a different request; it was not executed (HTTP 422"
            + " idempotency-key-reused)",
        key,
        null);
    this.attempts = attempts;
  }

  /** How many attempts were sent, this one included. */
  public int attempts() {
    return attempts;
  }
}
