package dev.once.events;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import java.util.Collection;
import java.util.Set;

/**
 * PLACEHOLDER: being written. Delivers outbox rows of event types to the consumers registered for
 * them, each through the inbox. A Kafka transport replaces it by registering a publishing handler
 * for the same types on the relay and calling the same {@link Inbox#deliver} from its listener:
 * consumers do not change.
 */
public final class InProcessEventTransport implements MessageHandler {
  private InProcessEventTransport() {}

  /** The transport for {@code consumers}, each delivered through {@code inbox}. */
  public static InProcessEventTransport of(
      Inbox inbox, Collection<? extends InboxConsumer> consumers) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Every type that at least one consumer takes: register the transport for each on the relay. */
  public Set<String> types() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public Delivery handle(OutboxRecord message) {
    throw new UnsupportedOperationException("not yet");
  }
}
