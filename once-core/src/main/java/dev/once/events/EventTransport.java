package dev.once.events;

import dev.once.outbox.MessageHandler;
import java.util.Set;

/**
 * The relay's side of an event transport: the {@link MessageHandler} that takes outbox rows of
 * event types on from the outbox, to the consumers in this process ({@link
 * InProcessEventTransport}) or to a broker (the {@code once-kafka} module's publisher). Register it
 * on the relay for every type in {@link #types()}.
 *
 * <p>Whatever the transport, a row is done only once the transport took the event on for good (the
 * consumers applied it, or the broker acknowledged it), and a row it fails to take on is retried by
 * the relay's policy: events leave the outbox at least once, and consumers apply them once in
 * effect through the inbox.
 */
public interface EventTransport extends MessageHandler {

  /** The event types it carries: register it on the relay for each. */
  Set<String> types();
}
