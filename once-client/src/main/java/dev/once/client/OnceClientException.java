package dev.once.client;

/**
 * A call that did not end with an answer to return. Carries the call's key (when it had one) and
 * never a request or answer body.
 */
public abstract sealed class OnceClientException extends RuntimeException
    permits GaveUpException, IdempotencyKeyReusedException, CallInterruptedException {
  private static final long serialVersionUID = 1L;
  private final transient String key;

  OnceClientException(String message, String key, Throwable cause) {
    super(message, cause);
    this.key = key;
  }

  /** The call's Idempotency-Key, or null if it was sent without one. */
  public String key() {
    return key;
  }
}
