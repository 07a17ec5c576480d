package dev.once.kafka.spring;

/** A checked failure of an inbox consumer's transaction, carried to the error handler. */
final class InboxDeliveryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  InboxDeliveryException(String consumer, Exception cause) {
    super("inbox consumer " + consumer + " failed: " + cause, cause);
  }
}
