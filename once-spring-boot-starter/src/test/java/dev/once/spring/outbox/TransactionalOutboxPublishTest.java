package dev.once.spring.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.postgres.PostgresStores;
import dev.once.spring.OnceSchemaMigration;
import dev.once.testing.TestDatabase;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/** An event is written only when something consumes its type; a command always is. */
class TransactionalOutboxPublishTest {
  private final DriverManagerDataSource dataSource =
      new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
  private final JdbcClient jdbc = JdbcClient.create(dataSource);
  private final TransactionTemplate transactions;
  private final TransactionalOutbox outbox;

  TransactionalOutboxPublishTest() {
    new OnceSchemaMigration(dataSource);
    transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    outbox =
        new TransactionalOutbox(
            Outbox.of(PostgresStores.outboxStore(dataSource)),
            dataSource,
            RelayWakeUp.NONE,
            Set.of("thing.consumed")::contains);
  }

  @Test
  void anEventOfAConsumedTypeIsWrittenAndOneNobodyConsumesIsNot() {
    String aggregate = "agg-" + UUID.randomUUID();
    Optional<OutboxEntry> consumed =
        transactions.execute(
            status -> outbox.publish(new OutboxMessage("thing.consumed", aggregate, "{}")));
    Optional<OutboxEntry> ignored =
        transactions.execute(
            status -> outbox.publish(new OutboxMessage("thing.ignored", aggregate, "{}")));
    transactions.executeWithoutResult(
        status -> outbox.append(new OutboxMessage("thing.ignored", aggregate, "{}")));

    assertThat(consumed).isPresent();
    assertThat(ignored).isEmpty();
    assertThat(
            jdbc.sql("SELECT type FROM once.outbox WHERE aggregate_id = ? ORDER BY id")
                .param(aggregate)
                .query(String.class)
                .list())
        .as("append always writes; publish only for a consumed type")
        .containsExactly("thing.consumed", "thing.ignored");
  }

  @Test
  void publishingOutsideATransactionIsRefusedEvenWhenNothingWouldBeWritten() {
    assertThatThrownBy(() -> outbox.publish(new OutboxMessage("thing.ignored", "agg", "{}")))
        .isInstanceOf(IllegalStateException.class);
  }
}
