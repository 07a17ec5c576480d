package dev.once.kafka.spring;

import dev.once.inbox.InboxConsumer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Adjusts the listener container of one inbox consumer before it starts (client settings, a record
 * interceptor, an observation registry). Beans of this type are applied to every container, in
 * order. Do not change the ack mode, the error handler or the message listener: Once's guarantees
 * rest on them.
 */
@FunctionalInterface
public interface InboxListenerCustomizer {
  void customize(
      InboxConsumer consumer, ConcurrentMessageListenerContainer<String, String> container);
}
