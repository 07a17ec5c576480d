package dev.once.kafka.spring;

/**
 * A transient database failure of an inbox consumer's transaction ({@code TransientFailures}),
 * carried to the error handler, which retries it without limit. Not a subclass of {@link
 * InboxDeliveryException}: the error handler tells the two apart by class.
 */
final class TransientInboxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TransientInboxException(String consumer, Exception cause) {
    super("inbox consumer " + consumer + " failed transiently: " + cause, cause);
  }
}
