package dev.once.events;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.ClaimLostException;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers outbox rows of event types to the consumers registered for them, in this process, each
 * consumer through the {@link Inbox} in a transaction of its own. Register it on the relay for
 * every type in {@link #types()}.
 *
 * <p>Guarantees: a committed event reaches every consumer of its type exactly once in effect (G2).
 * The relay delivers the row at least once; if any consumer fails, the row is retried as a whole,
 * and the consumers that had already applied it find their inbox record and skip it. A row whose
 * type no consumer takes is done. Consumers of one event are independent: one failing neither rolls
 * back nor blocks the others' effects.
 *
 * <p><b>Replacing it with Kafka.</b> Consumers do not change. The {@code once-kafka} module's
 * publisher is another {@link EventTransport}: it sends the row with its {@code messageId} as a
 * header and answers {@link Delivery#done()} once the broker acknowledged; its listeners build an
 * {@link InboxMessage} from each record and call {@link Inbox#deliver} with the same consumers,
 * committing the offset only after deliver returned: redeliveries by the broker dedupe in the inbox
 * exactly as the relay's retries do here.
 *
 * <p>Immutable and thread-safe.
 */
public final class InProcessEventTransport implements EventTransport {
  private static final Logger log = LoggerFactory.getLogger(InProcessEventTransport.class);

  private final Inbox inbox;
  private final Map<String, List<InboxConsumer>> consumersByType;

  private InProcessEventTransport(Inbox inbox, Map<String, List<InboxConsumer>> consumersByType) {
    this.inbox = inbox;
    this.consumersByType = consumersByType;
  }

  /**
   * The transport for {@code consumers}, each delivered through {@code inbox}.
   *
   * @throws IllegalArgumentException if two consumers share a name (they would share inbox records,
   *     so one would never see what the other applied) or a consumer names no type
   */
  public static InProcessEventTransport of(
      Inbox inbox, Collection<? extends InboxConsumer> consumers) {
    return of(inbox, consumers, Set.of());
  }

  /**
   * The transport for {@code consumers}, and for the event types the application publishes: a
   * published type that no consumer takes (yet) is delivered to nobody and done at once, so its
   * rows neither pile up nor hold back later rows of their aggregate.
   *
   * @throws IllegalArgumentException as {@link #of(Inbox, Collection)}
   */
  public static InProcessEventTransport of(
      Inbox inbox, Collection<? extends InboxConsumer> consumers, Set<String> publishedTypes) {
    Objects.requireNonNull(inbox, "inbox");
    Objects.requireNonNull(publishedTypes, "publishedTypes");
    Objects.requireNonNull(consumers, "consumers");
    Set<String> names = new HashSet<>();
    Map<String, List<InboxConsumer>> byType = new LinkedHashMap<>();
    for (InboxConsumer consumer : consumers) {
      Objects.requireNonNull(consumer, "consumer");
      String name = consumer.name();
      if (!names.add(name)) {
        throw new IllegalArgumentException(
            "Two inbox consumers are named '" + name + "'; each consumer needs a distinct name");
      }
      Set<String> types = consumer.types();
      if (types == null || types.isEmpty()) {
        throw new IllegalArgumentException("The inbox consumer '" + name + "' consumes no type");
      }
      for (String type : types) {
        byType
            .computeIfAbsent(Objects.requireNonNull(type, "type"), t -> new ArrayList<>())
            .add(consumer);
      }
    }
    for (String type : publishedTypes) {
      byType.computeIfAbsent(Objects.requireNonNull(type, "type"), t -> new ArrayList<>());
    }
    byType.replaceAll((type, list) -> List.copyOf(list));
    return new InProcessEventTransport(inbox, Collections.unmodifiableMap(byType));
  }

  /**
   * Every type that at least one consumer takes, and every published type: register the transport
   * for each on the relay.
   */
  @Override
  public Set<String> types() {
    return consumersByType.keySet();
  }

  /**
   * Delivers the row to every consumer of its type, each in its own transaction.
   *
   * @return {@link Delivery#done()} if every consumer applied the event now or before; {@link
   *     Delivery#retry(String)} naming the failed consumers and their exception classes otherwise
   */
  @Override
  public Delivery handle(OutboxRecord row) {
    return handle(row, Completion.NONE);
  }

  /**
   * As {@link #handle(OutboxRecord)}, and when every other consumer of the event has applied it,
   * the last one's transaction also completes the row: one commit for the last consumer's effect
   * and the row. A type without consumers is left to the relay to complete.
   */
  @Override
  public Delivery handle(OutboxRecord row, Completion completion) {
    List<InboxConsumer> consumers = consumersByType.getOrDefault(row.type(), List.of());
    InboxMessage message = InboxMessage.of(row);
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < consumers.size(); i++) {
      InboxConsumer consumer = consumers.get(i);
      boolean last = i == consumers.size() - 1;
      try {
        if (last && failures.isEmpty()) {
          inbox.deliver(consumer, message, completion);
        } else {
          inbox.deliver(consumer, message);
        }
      } catch (ClaimLostException e) {
        throw e; // the relay no longer holds the row: its new holder delivers it
      } catch (Exception e) {
        log.warn(
            "Consumer {} failed on message {} of type {} (attempt {}); the event will be retried",
            consumer.name(),
            row.messageId(),
            row.type(),
            row.attempt(),
            e);
        failures.add("consumer " + consumer.name() + " failed: " + e.getClass().getName());
      }
    }
    return failures.isEmpty() ? Delivery.done() : Delivery.retry(String.join("; ", failures));
  }
}
