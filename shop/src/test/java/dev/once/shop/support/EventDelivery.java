package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Delivers the shop's events by hand, as the relay would (it is off in tests): reads them from
 * {@code once.outbox} and hands them to a consumer through the real {@link Inbox}, so a test can
 * deliver any event twice, as a copy with a new message id, or out of order; or {@link #pump} an
 * aggregate's events as the relay would, in order, each to every consumer of its type.
 */
public final class EventDelivery {
  /** The consumer that reserves stock on {@code order.placed}. */
  public static final String RESERVE_STOCK = "reserve-stock";

  /** The consumer that releases stock on {@code order.cancelled}. */
  public static final String RELEASE_STOCK = "release-stock";

  /** The consumer that moves orders on stock and payment outcomes. */
  public static final String ORDERS = "orders";

  private final JdbcClient jdbc;
  private final Inbox inbox;
  private final Map<String, InboxConsumer> consumers;

  public EventDelivery(JdbcClient jdbc, Inbox inbox, List<InboxConsumer> consumers) {
    this.jdbc = jdbc;
    this.inbox = inbox;
    this.consumers =
        consumers.stream().collect(Collectors.toMap(InboxConsumer::name, Function.identity()));
  }

  /** The events of {@code type} published for {@code aggregateId}, in commit order. */
  public List<InboxMessage> events(String aggregateId, String type) {
    return jdbc.sql(
            """
            SELECT message_id, type, aggregate_id, payload::text AS payload FROM once.outbox
            WHERE aggregate_id = :aggregate AND type = :type ORDER BY id
            """)
        .param("aggregate", aggregateId)
        .param("type", type)
        .query(
            (rs, row) ->
                new InboxMessage(
                    rs.getObject("message_id", UUID.class),
                    rs.getString("type"),
                    rs.getString("aggregate_id"),
                    rs.getString("payload")))
        .list();
  }

  /** The one event of {@code type} published for {@code aggregateId}; fails if not exactly one. */
  public InboxMessage event(String aggregateId, String type) {
    List<InboxMessage> events = events(aggregateId, type);
    assertThat(events).as("%s events of %s", type, aggregateId).hasSize(1);
    return events.get(0);
  }

  /** How many events of {@code type} were published for {@code aggregateId}. */
  public int count(String aggregateId, String type) {
    return events(aggregateId, type).size();
  }

  /** The same event under a new message id: a republished copy the inbox cannot recognize. */
  public static InboxMessage copy(InboxMessage message) {
    return new InboxMessage(
        UUID.randomUUID(), message.type(), message.aggregateId(), message.payloadJson());
  }

  /** Delivers through the inbox; whether the consumer applied it (false: inbox duplicate). */
  public boolean deliver(String consumer, InboxMessage message) {
    InboxConsumer target = consumers.get(consumer);
    assertThat(target).as("consumer %s in %s", consumer, consumers.keySet()).isNotNull();
    assertThat(target.types()).as("types of %s", consumer).contains(message.type());
    try {
      return inbox.deliver(target, message);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Delivers the one {@code type} event of {@code aggregateId} to {@code consumer}. */
  public boolean deliver(String consumer, String aggregateId, String type) {
    return deliver(consumer, event(aggregateId, type));
  }

  /**
   * Delivers the aggregate's pending events, and those they publish for it, until none is left, as
   * the relay would: in id order, each to every consumer whose types contain it, then marked
   * delivered. Rows no inbox consumer takes (the provider's charges and refunds) stay pending. A
   * consumer that throws fails the pump, and its row stays pending.
   *
   * @return the types of the events delivered, in the order delivered
   */
  public List<String> pump(String aggregateId) {
    List<String> delivered = new ArrayList<>();
    while (true) {
      List<PendingRow> pending =
          jdbc
              .sql(
                  """
                  SELECT id, message_id, type, payload::text AS payload FROM once.outbox
                  WHERE aggregate_id = :aggregate AND state = 'pending' ORDER BY id
                  """)
              .param("aggregate", aggregateId)
              .query(
                  (rs, row) ->
                      new PendingRow(
                          rs.getLong("id"),
                          new InboxMessage(
                              rs.getObject("message_id", UUID.class),
                              rs.getString("type"),
                              aggregateId,
                              rs.getString("payload"))))
              .list()
              .stream()
              .filter(row -> !consumersOf(row.message().type()).isEmpty())
              .toList();
      if (pending.isEmpty()) {
        return delivered;
      }
      for (PendingRow row : pending) {
        for (InboxConsumer consumer : consumersOf(row.message().type())) {
          deliver(consumer.name(), row.message());
        }
        jdbc.sql("UPDATE once.outbox SET state = 'delivered', delivered_at = now() WHERE id = :id")
            .param("id", row.id())
            .update();
        delivered.add(row.message().type());
      }
    }
  }

  private List<InboxConsumer> consumersOf(String type) {
    return consumers.values().stream().filter(c -> c.types().contains(type)).toList();
  }

  private record PendingRow(long id, InboxMessage message) {}

  /** How many inbox records {@code consumer} has for {@code messageId} (0 or 1). */
  public long inboxRecords(String consumer, UUID messageId) {
    return jdbc.sql("SELECT count(*) FROM once.inbox WHERE message_id = :m AND consumer = :c")
        .param("m", messageId)
        .param("c", consumer)
        .query(Long.class)
        .single();
  }
}
