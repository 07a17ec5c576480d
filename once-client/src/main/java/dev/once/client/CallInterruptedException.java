package dev.once.client;

/**
 * The calling thread was interrupted during an attempt or a wait: the call stopped and the thread's
 * interrupt flag is set again. Whether the server applied the request is unknown.
 */
public final class CallInterruptedException extends OnceClientException {
  private static final long serialVersionUID = 1L;

  CallInterruptedException(String key, int attempts, InterruptedException cause) {
    super("Interrupted after " + attempts + " attempt(s)", key, cause);
  }
}
