package dev.once.spring.outbox;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * An application with one handler bean and two event consumers; the consumers write through a
 * JdbcTemplate, not through the connection they are given, so their effect counts only if Spring
 * joined them to the inbox's transaction.
 */
@Configuration(proxyBeanMethods = false)
public class OutboxTestApplication {
  /** Per run, so rows left by earlier runs in the shared database are not this run's. */
  public static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  public static final String CHARGE = "test.charge." + RUN;
  public static final String ORDER_PLACED = "test.order-placed." + RUN;

  /**
   * This application with Once and Boot's DataSource and transactions on {@code url}, as the
   * superuser of the test server; each test adds its own properties and beans.
   */
  public static ApplicationContextRunner runner(String url) {
    return new ApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class))
        .withUserConfiguration(OutboxTestApplication.class)
        .withPropertyValues(
            "spring.datasource.url=" + url,
            "spring.datasource.username=postgres",
            "spring.datasource.password=postgres");
  }

  /** {@link #runner(String)} on the shared test database. */
  public static ApplicationContextRunner runner() {
    return runner(TestDatabase.jdbcUrl());
  }

  @Bean
  ChargeHandler chargeHandler() {
    return new ChargeHandler();
  }

  @Bean
  InboxConsumer reserveStock(DataSource dataSource) {
    return new EffectConsumer("reserve-stock-" + RUN, new JdbcTemplate(dataSource));
  }

  @Bean
  InboxConsumer sendMail(DataSource dataSource) {
    return new EffectConsumer("send-mail-" + RUN, new JdbcTemplate(dataSource));
  }

  @Bean
  Orders orders(TransactionalOutbox outbox) {
    return new Orders(outbox);
  }

  /** Records the message ids it was handed; a payload {@code {"fail":true}} is refused for good. */
  public static final class ChargeHandler implements OutboxHandler {
    public final Set<UUID> handled = ConcurrentHashMap.newKeySet();

    @Override
    public String type() {
      return CHARGE;
    }

    @Override
    public Delivery handle(OutboxRecord message) {
      handled.add(message.messageId());
      return message.payloadJson().contains("fail") ? Delivery.dead("refused") : Delivery.done();
    }
  }

  /** Counts its effect in the effect table, through a JdbcTemplate. */
  public static final class EffectConsumer implements InboxConsumer {
    private final String name;
    private final JdbcTemplate jdbc;

    EffectConsumer(String name, JdbcTemplate jdbc) {
      this.name = name;
      this.jdbc = jdbc;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Set<String> types() {
      return Set.of(ORDER_PLACED);
    }

    @Override
    public void consume(Connection tx, InboxMessage message) {
      jdbc.update(EffectTable.APPLY, message.messageId(), name);
    }
  }

  /** Business transactions that append to the outbox. */
  public static class Orders {
    private final TransactionalOutbox outbox;

    Orders(TransactionalOutbox outbox) {
      this.outbox = outbox;
    }

    @Transactional
    public OutboxEntry append(String type, String payloadJson) {
      return outbox.append(new OutboxMessage(type, "agg-" + UUID.randomUUID(), payloadJson));
    }

    /** Appends, then fails, so the transaction rolls back; {@code appended} gets the entry. */
    @Transactional
    public void appendAndFail(String type, AtomicReference<OutboxEntry> appended) {
      appended.set(outbox.append(new OutboxMessage(type, "agg-" + UUID.randomUUID(), "{}")));
      throw new IllegalStateException("business rule violated after the append");
    }
  }
}
