package dev.once.spring.outbox;

import dev.once.events.EventTransport;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStore;
import dev.once.outbox.RelayListener;
import dev.once.outbox.RetryPolicy;
import dev.once.spring.OnceProperties.Relay;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.OnceTracing;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the relay from the application's {@link OutboxHandler} beans and the event transport (in
 * process, or a broker's), refusing a type claimed twice before anything touches the database.
 */
final class OutboxRelays {
  private static final Logger log = LoggerFactory.getLogger(OutboxRelays.class);

  private OutboxRelays() {}

  /**
   * @param handlers the handler beans by bean name
   * @param transport the transport of the events (to the inbox consumers in this process, or to a
   *     broker); {@code null} if there are none
   * @param tracing wraps every handler, the transport too, in a delivery span per attempt ({@link
   *     OnceTracing#NONE}: none)
   * @throws IllegalStateException if two handler beans, or a handler bean and a consumer, claim a
   *     type
   */
  static OutboxRelay build(
      Relay settings,
      Supplier<OutboxStore> store,
      Map<String, OutboxHandler> handlers,
      EventTransport transport,
      Clock clock,
      RelayListener listener,
      OnceTracing tracing,
      OnceThreads threads) {
    Map<String, String> owners = new LinkedHashMap<>();
    handlers.forEach(
        (bean, handler) -> {
          String type = handler.type();
          if (type == null || type.isBlank()) {
            throw new IllegalStateException(
                "The OutboxHandler bean '" + bean + "' names no message type");
          }
          String other = owners.putIfAbsent(type, bean);
          if (other != null) {
            throw new IllegalStateException(
                "Two OutboxHandler beans handle the message type '"
                    + type
                    + "': '"
                    + other
                    + "' and '"
                    + bean
                    + "'; a type has one handler");
          }
        });
    if (transport != null) {
      for (String type : transport.types()) {
        if (owners.containsKey(type)) {
          throw new IllegalStateException(
              "The message type '"
                  + type
                  + "' has both an OutboxHandler bean ('"
                  + owners.get(type)
                  + "') and InboxConsumer beans; a type is either handled by one handler or"
                  + " consumed as an event, not both");
        }
      }
    }
    Map<String, RetryPolicy> policies = settings.typeRetryPolicies();
    OutboxRelay.Builder builder =
        OutboxRelay.builder(store.get())
            .defaultRetryPolicy(settings.defaultRetryPolicy())
            .workers(settings.workers())
            .batchSize(settings.batchSize())
            .handlerBatchSize(settings.handlerBatchSize())
            .lease(settings.lease())
            .handlerTimeout(settings.handlerTimeout())
            .claimCoalescing(settings.claimCoalescing())
            .asyncCompletions(settings.asyncCompletions())
            .pollInterval(settings.pollInterval())
            .deliveredRetention(settings.deliveredRetention())
            .pausedAtStart(settings.pausedTypes())
            .purgeBatchSize(settings.purgeBatchSize())
            .shutdownTimeout(settings.shutdownTimeout())
            .clock(clock)
            .listener(listener)
            .threadFactory(threads.factory());
    settings
        .types()
        .forEach(
            (type, retry) -> {
              if (retry.handlerTimeout() != null) {
                builder.handlerTimeout(type, retry.handlerTimeout());
              }
            });
    // What handlers and consumers append drains the backlog: load shedding never refuses it.
    handlers
        .values()
        .forEach(
            h ->
                builder.handler(
                    h.type(), tracing.traced(RelayWork.marked(h)), policies.get(h.type())));
    if (transport != null) {
      MessageHandler events = tracing.traced(RelayWork.marked(transport));
      transport.types().forEach(type -> builder.handler(type, events, policies.get(type)));
    }
    for (String type : policies.keySet()) {
      if (!owners.containsKey(type) && (transport == null || !transport.types().contains(type))) {
        log.warn(
            "once.outbox.relay.types[{}] sets a retry policy, but no OutboxHandler or InboxConsumer"
                + " bean takes that type; is it misspelt?",
            type);
      }
    }
    return builder.build();
  }
}
