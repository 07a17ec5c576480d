package dev.once.spring.tracing;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.outbox.OutboxHandler;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.tracing.TraceContext;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * An application with a handler that answers a retry once when its payload asks for it, and a chain
 * of two events: the consumer of {@link #PLACED} publishes {@link #SHIPPED}, whose consumer records
 * the context it was given. Types are per run, so rows of earlier runs in the shared database are
 * not this run's.
 */
@Configuration(proxyBeanMethods = false)
public class TracingTestApplication {
  public static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  public static final String CHARGE = "trace.charge." + RUN;
  public static final String PLACED = "trace.order-placed." + RUN;
  public static final String SHIPPED = "trace.order-shipped." + RUN;

  /** What handlers and consumers were handed, by message id (a static: it outlives a context). */
  public static final Map<UUID, List<TraceContext>> RECEIVED = new ConcurrentHashMap<>();

  static void received(UUID messageId, TraceContext trace) {
    RECEIVED.computeIfAbsent(messageId, id -> new CopyOnWriteArrayList<>()).add(trace);
  }

  @Bean
  OutboxHandler chargeHandler() {
    return new OutboxHandler() {
      @Override
      public String type() {
        return CHARGE;
      }

      @Override
      public Delivery handle(OutboxRecord row) {
        received(row.messageId(), row.trace());
        return row.payloadJson().contains("retry-once") && row.attempt() == 1
            ? Delivery.retry("provider timed out")
            : Delivery.done();
      }
    };
  }

  @Bean
  InboxConsumer ship(TransactionalOutbox outbox) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return "ship-" + RUN;
      }

      @Override
      public Set<String> types() {
        return Set.of(PLACED);
      }

      @Override
      public void consume(Connection tx, InboxMessage message) {
        received(message.messageId(), message.trace());
        outbox.publish(new OutboxMessage(SHIPPED, message.aggregateId(), "{}"));
      }
    };
  }

  @Bean
  InboxConsumer notify(DataSource dataSource) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return "notify-" + RUN;
      }

      @Override
      public Set<String> types() {
        return Set.of(SHIPPED);
      }

      @Override
      public void consume(Connection tx, InboxMessage message) {
        received(message.messageId(), message.trace());
      }
    };
  }

  @Bean
  Orders orders(TransactionalOutbox outbox, DataSource dataSource) {
    return new Orders(outbox, new JdbcTemplate(dataSource));
  }

  /** Business transactions that append to the outbox. */
  public static class Orders {
    private final TransactionalOutbox outbox;
    private final JdbcTemplate jdbc;

    Orders(TransactionalOutbox outbox, JdbcTemplate jdbc) {
      this.outbox = outbox;
      this.jdbc = jdbc;
    }

    @Transactional
    public OutboxEntry append(String type, String payloadJson) {
      return append(new OutboxMessage(type, "agg-" + UUID.randomUUID(), payloadJson));
    }

    @Transactional
    public OutboxEntry append(OutboxMessage message) {
      return outbox.append(message);
    }

    /** Appends, then overwrites the stored context by SQL before the commit. */
    @Transactional
    public OutboxEntry appendWithStoredTrace(String type, String traceparent, String tracestate) {
      OutboxEntry entry = append(type, "{}");
      jdbc.update(
          "UPDATE once.outbox SET traceparent = ?, tracestate = ? WHERE id = ?",
          traceparent,
          tracestate,
          entry.id());
      return entry;
    }
  }
}
