package dev.once.spring.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.OnceAutoConfigurations;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The application's inbox runs each consumer in a Spring transaction of its own, which the
 * consumer's JdbcTemplate joins: the effect and the inbox record commit or roll back together.
 */
class SpringInboxTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class))
          .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres");

  @Test
  void aConsumersJdbcTemplateWritesInTheInboxTransaction() {
    runner.run(
        context -> {
          DataSource dataSource = context.getBean(DataSource.class);
          EffectTable effects = new EffectTable(dataSource);
          JdbcTemplate jdbc = new JdbcTemplate(dataSource);
          Inbox inbox = context.getBean(Inbox.class);
          InboxMessage message = new InboxMessage(UUID.randomUUID(), "order.placed", "ord_1", "{}");
          AtomicBoolean fail = new AtomicBoolean(true);
          InboxConsumer consumer =
              new InboxConsumer() {
                @Override
                public String name() {
                  return "reserve-stock";
                }

                @Override
                public Set<String> types() {
                  return Set.of("order.placed");
                }

                @Override
                public void consume(Connection tx, InboxMessage m) {
                  jdbc.update(EffectTable.APPLY, m.messageId(), "reserve-stock");
                  if (fail.getAndSet(false)) {
                    throw new IllegalStateException("stock service down");
                  }
                }
              };

          assertThatThrownBy(() -> inbox.deliver(consumer, message))
              .hasMessage("stock service down");
          assertThat(effects.applied(message.messageId(), "reserve-stock")).isZero();
          assertThat(records(jdbc, message.messageId())).isZero();

          assertThat(inbox.deliver(consumer, message)).isTrue();
          assertThat(inbox.deliver(consumer, message)).isFalse();
          assertThat(effects.applied(message.messageId(), "reserve-stock")).isEqualTo(1);
          assertThat(records(jdbc, message.messageId())).isEqualTo(1);
          assertThat(
                  context
                      .getBean(MeterRegistry.class)
                      .get("once.inbox.duplicates")
                      .tag("consumer", "reserve-stock")
                      .counter()
                      .count())
              .isEqualTo(1.0);
        });
  }

  @Test
  void aCheckedExceptionRollsBackAndReachesTheCaller() {
    runner.run(
        context -> {
          DataSource dataSource = context.getBean(DataSource.class);
          EffectTable effects = new EffectTable(dataSource);
          JdbcTemplate jdbc = new JdbcTemplate(dataSource);
          UUID id = UUID.randomUUID();
          SpringTransactions transactions =
              new SpringTransactions(
                  context.getBean(org.springframework.transaction.PlatformTransactionManager.class),
                  dataSource);

          assertThatThrownBy(
                  () ->
                      transactions.inTransaction(
                          tx -> {
                            jdbc.update(EffectTable.APPLY, id, "checked");
                            throw new java.io.IOException("disk full");
                          }))
              .isInstanceOf(java.io.IOException.class)
              .hasMessage("disk full");
          assertThat(effects.applied(id, "checked")).isZero();
        });
  }

  private static long records(JdbcTemplate jdbc, UUID messageId) {
    return jdbc.queryForObject(
        "SELECT count(*) FROM once.inbox WHERE message_id = ?", Long.class, messageId);
  }
}
