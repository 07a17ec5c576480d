package dev.once.kafka;

/**
 * A record that no retry can apply: no message id, a malformed one, no type, no key or no value, or
 * a value that is not a JSON document. The listener dead-letters it at once, with this message as
 * its reason; the message names what is wrong, never the payload.
 */
public final class InvalidRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidRecordException(String message) {
    super(message);
  }
}
