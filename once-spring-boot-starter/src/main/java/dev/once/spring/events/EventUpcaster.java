package dev.once.spring.events;

import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the payload of one version of an event into the payload of the next: declare one bean per
 * step. A listener whose record is version {@code n} reads a version {@code k < n} event by
 * applying the upcasters from {@code k} to {@code k + 1}, ..., {@code n - 1} to {@code n}, one
 * after the other, then binding the result to its record. A missing step fails the delivery
 * (retried, then dead), it is never skipped.
 *
 * <p>Upcasters must be pure functions of the payload: an event may be read several times (a retry,
 * another consumer). Two upcasters for the same event and version fail the application's start.
 */
public interface EventUpcaster {

  /** The event's type, the {@link OnceEvent#name()}. */
  String event();

  /** The version it reads, at least 1; it returns the payload of {@code fromVersion() + 1}. */
  int fromVersion();

  /**
   * The payload of version {@code fromVersion() + 1}.
   *
   * @param payload the payload of version {@link #fromVersion()}, without the {@code "@version"}
   *     member; a copy the upcaster may change and return
   */
  ObjectNode upcast(ObjectNode payload);
}
