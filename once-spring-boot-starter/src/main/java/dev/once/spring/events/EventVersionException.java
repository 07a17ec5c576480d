package dev.once.spring.events;

import dev.once.OnceException;

/**
 * A listener cannot read an event's version: the event is newer than the listener's record (deploy
 * the listener's new version, then requeue the dead event), or older and an {@link EventUpcaster}
 * step up to the record's version is missing. Thrown before the listener runs, so nothing is
 * applied and the event is not marked consumed; the transport retries it and, after its attempts,
 * dead-letters it.
 */
public final class EventVersionException extends OnceException {
  private static final long serialVersionUID = 1L;

  public EventVersionException(String message) {
    super(message);
  }
}
