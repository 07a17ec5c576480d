package dev.once.events;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
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
 * <p><b>Batches.</b> As a {@link BatchMessageHandler} it takes a claim's rows of one type at once:
 * each {@link BatchInboxConsumer} gets them in one inbox transaction ({@link Inbox#deliverAll}),
 * the last consumer's transaction also completing the rows that every consumer has applied, so a
 * batch of n events costs one commit per consumer instead of n. A batch that fails is rolled back
 * and delivered to that consumer row by row, so a poison event fails alone, is retried by the
 * relay's policy and turns dead alone; the others are applied once. Consumers that are not {@link
 * BatchInboxConsumer}s get each row in a transaction of its own, as before.
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
public final class InProcessEventTransport implements EventTransport, BatchMessageHandler {
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
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < consumers.size(); i++) {
      boolean last = i == consumers.size() - 1;
      deliverOne(consumers.get(i), row, last && failures.isEmpty() ? completion : null, failures);
    }
    return outcome(failures);
  }

  /**
   * Delivers a claim's rows of one type to every consumer of the type: a {@link BatchInboxConsumer}
   * takes them in one transaction (the last consumer's also completes the rows every consumer has
   * applied), the others one row per transaction. A batch that fails is delivered again to that
   * consumer one row at a time, so only the failing rows fail.
   *
   * @return per row, {@link Delivery#done()} if every consumer applied it now or before, else
   *     {@link Delivery#retry(String)} naming the failed consumers (also for a row whose claim was
   *     lost: the relay finds that out when it records the outcome)
   */
  @Override
  public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) {
    String type = rows.isEmpty() ? null : rows.get(0).type();
    if (rows.stream().anyMatch(row -> !row.type().equals(type))) {
      return rows.stream().map(row -> handle(row, completion.of(row))).toList();
    }
    List<InboxConsumer> consumers = consumersByType.getOrDefault(type, List.of());
    List<List<String>> failures = new ArrayList<>(rows.size());
    rows.forEach(row -> failures.add(new ArrayList<>()));
    for (int c = 0; c < consumers.size(); c++) {
      InboxConsumer consumer = consumers.get(c);
      boolean last = c == consumers.size() - 1;
      List<OutboxRecord> clean = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        if (failures.get(i).isEmpty()) {
          clean.add(rows.get(i));
        }
      }
      if (consumer instanceof BatchInboxConsumer batch && rows.size() > 1) {
        try {
          inbox.deliverAll(
              batch,
              rows.stream().map(InboxMessage::of).toList(),
              last ? completion.of(clean) : Completion.NONE);
          continue;
        } catch (Exception e) {
          log.debug(
              "Consumer {} failed on a batch of {} messages of type {} ({}); delivering them one"
                  + " at a time",
              consumer.name(),
              rows.size(),
              type,
              e.getClass().getName());
        }
      }
      for (int i = 0; i < rows.size(); i++) {
        OutboxRecord row = rows.get(i);
        boolean complete = last && failures.get(i).isEmpty();
        deliverOne(consumer, row, complete ? completion.of(row) : null, failures.get(i));
      }
    }
    return failures.stream().map(InProcessEventTransport::outcome).toList();
  }

  /**
   * Delivers one row to one consumer, with the row's completion if given; a failure is logged and
   * added to {@code failures}. A lost claim is rethrown when the row is handled alone ({@code
   * failures} of the row only), which the relay reports.
   */
  private void deliverOne(
      InboxConsumer consumer, OutboxRecord row, Completion completion, List<String> failures) {
    try {
      if (completion != null) {
        inbox.deliver(consumer, InboxMessage.of(row), completion);
      } else {
        inbox.deliver(consumer, InboxMessage.of(row));
      }
    } catch (ClaimLostException e) {
      // The relay no longer holds the row: its new holder delivers it.
      failures.add("the relay's claim on the row was lost");
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

  private static Delivery outcome(List<String> failures) {
    return failures.isEmpty() ? Delivery.done() : Delivery.retry(String.join("; ", failures));
  }
}
