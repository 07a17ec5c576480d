package dev.once.shop.support;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Delivers every pending event of an aggregate, and the events those produce, as the outbox relay
 * would (the relay does not run in tests): each pending {@code once.outbox} row of the aggregate,
 * in id order, goes through the {@link Inbox} to every {@link InboxConsumer} whose {@link
 * InboxConsumer#types()} contain its type, and is then marked delivered. Rows that a delivery
 * publishes for the same aggregate are delivered in turn, until none is pending. Rows that no inbox
 * consumer takes (the provider's charges and refunds) are left pending. A consumer that throws
 * fails the pump, and its row stays pending.
 */
public final class EventPump {
  private final JdbcClient jdbc;
  private final Inbox inbox;
  private final List<InboxConsumer> consumers;

  /**
   * @param jdbc the shop's database
   * @param inbox the shop's inbox
   * @param consumers every inbox consumer of the context
   */
  public EventPump(JdbcClient jdbc, Inbox inbox, List<InboxConsumer> consumers) {
    this.jdbc = jdbc;
    this.inbox = inbox;
    this.consumers = List.copyOf(consumers);
  }

  /**
   * Delivers the aggregate's pending events, and those they produce for it, until none is left.
   *
   * @return the types of the events delivered, in the order delivered
   */
  public List<String> pump(String aggregateId) {
    List<String> delivered = new ArrayList<>();
    while (true) {
      List<Row> pending =
          jdbc
              .sql(
                  """
                  SELECT id, message_id, type, payload::text AS payload FROM once.outbox
                  WHERE aggregate_id = :aggregate AND state = 'pending' ORDER BY id
                  """)
              .param("aggregate", aggregateId)
              .query(
                  (rs, row) ->
                      new Row(
                          rs.getLong("id"),
                          rs.getObject("message_id", UUID.class),
                          rs.getString("type"),
                          rs.getString("payload")))
              .list()
              .stream()
              .filter(row -> consumers.stream().anyMatch(c -> c.types().contains(row.type())))
              .toList();
      if (pending.isEmpty()) {
        return delivered;
      }
      for (Row row : pending) {
        InboxMessage message =
            new InboxMessage(row.messageId(), row.type(), aggregateId, row.payload());
        for (InboxConsumer consumer : consumers) {
          if (consumer.types().contains(row.type())) {
            try {
              inbox.deliver(consumer, message);
            } catch (Exception e) {
              throw new IllegalStateException(
                  consumer.name() + " failed on " + row.type() + " of " + aggregateId, e);
            }
          }
        }
        jdbc.sql("UPDATE once.outbox SET state = 'delivered', delivered_at = now() WHERE id = :id")
            .param("id", row.id())
            .update();
        delivered.add(row.type());
      }
    }
  }

  private record Row(long id, UUID messageId, String type, String payload) {}
}
