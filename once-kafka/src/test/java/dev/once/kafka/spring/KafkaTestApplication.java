package dev.once.kafka.spring;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.testing.EffectTable;
import java.sql.Connection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * An application with one inbox consumer of one event type, which counts its effect in the effect
 * table through a JdbcTemplate (so the effect counts only if Spring joined it to the inbox's
 * transaction), and a service that appends events. The type and the consumer's name carry the
 * test's run id, set in {@code test.run}.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaTestApplication {

  /** The event type of run {@code run}. */
  public static String type(String run) {
    return "test.kafka." + run;
  }

  /** The consumer's name in run {@code run}. */
  public static String consumer(String run) {
    return "effects-" + run;
  }

  /**
   * The consumer: a {@link BatchInboxConsumer}, as {@code @OnceListener} consumers are by default,
   * unless {@code test.batch=false}.
   */
  @Bean
  EffectConsumer effectConsumer(
      DataSource dataSource, org.springframework.core.env.Environment environment) {
    String run = environment.getRequiredProperty("test.run");
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    return environment.getProperty("test.batch", Boolean.class, true)
        ? new BatchEffectConsumer(consumer(run), type(run), jdbc)
        : new EffectConsumer(consumer(run), type(run), jdbc);
  }

  @Bean
  Events events(TransactionalOutbox outbox) {
    return new Events(outbox);
  }

  /**
   * Counts its effect; fails while {@link #failing} matches the message (a poison record, a
   * consumer bug), and records the order in which it applied each aggregate's events: {@link
   * #applied} holds a message once its transaction committed (a batch that rolled back adds
   * nothing), in commit order. Takes one message per transaction.
   */
  public static class EffectConsumer implements InboxConsumer {
    private final String name;
    private final String type;
    private final JdbcTemplate jdbc;
    public volatile Predicate<InboxMessage> failing = message -> false;
    public final List<InboxMessage> applied = new CopyOnWriteArrayList<>();

    EffectConsumer(String name, String type, JdbcTemplate jdbc) {
      this.name = name;
      this.type = type;
      this.jdbc = jdbc;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Set<String> types() {
      return Set.of(type);
    }

    @Override
    public void consume(Connection tx, InboxMessage message) {
      if (failing.test(message)) {
        throw new IllegalStateException("this consumer refuses " + message.aggregateId());
      }
      jdbc.update(EffectTable.APPLY, message.messageId(), name);
      AfterCommit.run(() -> applied.add(message));
    }
  }

  /** The {@link EffectConsumer} that takes a partition's records in one transaction. */
  public static final class BatchEffectConsumer extends EffectConsumer
      implements BatchInboxConsumer {
    BatchEffectConsumer(String name, String type, JdbcTemplate jdbc) {
      super(name, type, jdbc);
    }
  }

  /** Business transactions that publish events. */
  public static class Events {
    private final TransactionalOutbox outbox;

    Events(TransactionalOutbox outbox) {
      this.outbox = outbox;
    }

    @Transactional
    public OutboxEntry publish(String type, String aggregateId, String payloadJson) {
      return outbox.append(new OutboxMessage(type, aggregateId, payloadJson));
    }
  }
}
