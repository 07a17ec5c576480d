package dev.once.spring.events;

import dev.once.OnceException;

/**
 * An event's payload cannot be read into the listener's record: it is not a JSON object, its {@code
 * "@version"} member is not a positive integer, or it does not bind to the record (a missing
 * primitive, a value of the wrong type, a check of the record's constructor). Thrown before the
 * listener runs, so nothing is applied; the transport retries the event and, after its attempts,
 * dead-letters it. The message names the event, its message id and the consumer, never the payload.
 */
public final class EventPayloadException extends OnceException {
  private static final long serialVersionUID = 1L;

  public EventPayloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
