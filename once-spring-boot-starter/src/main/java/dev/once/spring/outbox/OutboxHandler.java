package dev.once.spring.outbox;

import dev.once.outbox.MessageHandler;

/**
 * A {@link MessageHandler} as a Spring bean: the auto-configuration registers every such bean on
 * the outbox relay for its {@link #type()}. The handler is called after the row's transaction
 * committed, never for a rolled-back one, at least once per row and with no transaction open, so
 * its effect must be idempotent on the message id. One bean per type; a type that also has {@code
 * InboxConsumer} beans stops the start. The relay calls it from several worker threads at once (for
 * rows of different aggregates), so implementations must be thread-safe.
 */
public interface OutboxHandler extends MessageHandler {

  /** The message type this bean handles, e.g. {@code provider.charge}. */
  String type();
}
