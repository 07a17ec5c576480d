package dev.once.client;

import java.time.Duration;

/**
 * The call got no answer worth returning before its deadline or its last attempt, or its last
 * failure may not be retried (a request without a key). Whether the server applied the request is
 * unknown; with a key, sending it again under the same key is safe.
 */
public final class GaveUpException extends OnceClientException {
  private static final long serialVersionUID = 1L;
  private final int attempts;
  private final int lastStatus;
  private final String lastException;
  private final Duration elapsed;

  GaveUpException(
      String reason,
      String key,
      int attempts,
      int lastStatus,
      String lastException,
      Duration elapsed,
      Throwable cause) {
    super(
        "Gave up after "
            + attempts
            + (attempts == 1 ? " attempt" : " attempts")
            + " in "
            + elapsed.toMillis()
            + " ms ("
            + reason
            + "); last: "
            + (lastStatus > 0 ? "HTTP " + lastStatus : lastException)
            + (key == null ? "; no Idempotency-Key" : "; Idempotency-Key " + key),
        key,
        cause);
    this.attempts = attempts;
    this.lastStatus = lastStatus;
    this.lastException = lastException;
    this.elapsed = elapsed;
  }

  /** How many attempts were sent. */
  public int attempts() {
    return attempts;
  }

  /** The status of the last answer, or -1 if the last attempt failed without one. */
  public int lastStatus() {
    return lastStatus;
  }

  /** The class name of the last attempt's exception, or null if it got an answer. */
  public String lastException() {
    return lastException;
  }

  /** From the call's start to the give-up, by the client's clock. */
  public Duration elapsed() {
    return elapsed;
  }
}
