package dev.once.kafka.spring;

import dev.once.inbox.InboxConsumer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Adjusts the listener container of one inbox consumer before it starts (client settings, a batch
 * interceptor, an observation registry). Beans of this type are applied to every container, in
 * order. The container's listener is a batch listener that gets a poll's records one partition at a
 * time: a {@code RecordInterceptor} would never be called, so setting one fails the start; use a
 * {@code BatchInterceptor}. Do not change the ack mode, the error handler, the message listener or
 * the dispatch per partition: Once's guarantees rest on them.
 */
@FunctionalInterface
public interface InboxListenerCustomizer {
  void customize(
      InboxConsumer consumer, ConcurrentMessageListenerContainer<String, String> container);
}
