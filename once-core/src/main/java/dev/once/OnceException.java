package dev.once;

/**
 * Common base of every exception that Once raises on purpose.
 *
 * <p>Subclasses are named after the domain condition they report and carry its context (a key, a
 * state, an offset), never a stored payload or a secret, so that their messages are safe to log.
 */
public abstract class OnceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected OnceException(String message) {
    super(message);
  }

  protected OnceException(String message, Throwable cause) {
    super(message, cause);
  }
}
