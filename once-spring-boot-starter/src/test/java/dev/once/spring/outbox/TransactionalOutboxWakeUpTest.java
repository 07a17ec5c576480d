package dev.once.spring.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxMessage;
import dev.once.postgres.PostgresStores;
import dev.once.spring.OnceSchemaMigration;
import dev.once.testing.TestDatabase;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/** The relay is woken once per committed transaction that appended, never for a rollback. */
class TransactionalOutboxWakeUpTest {
  private final DriverManagerDataSource dataSource =
      new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
  private final AtomicInteger wakeUps = new AtomicInteger();
  private final TransactionTemplate transactions;
  private final TransactionalOutbox outbox;

  TransactionalOutboxWakeUpTest() {
    new OnceSchemaMigration(dataSource);
    transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    outbox =
        new TransactionalOutbox(
            Outbox.of(PostgresStores.outboxStore(dataSource)),
            dataSource,
            wakeUps::incrementAndGet);
  }

  @Test
  void aCommitThatAppendedTwiceWakesTheRelayOnceAfterTheCommit() {
    transactions.executeWithoutResult(
        status -> {
          outbox.append(new OutboxMessage("test.wake", "agg-1", "{}"));
          outbox.append(new OutboxMessage("test.wake", "agg-1", "{}"));
          assertThat(wakeUps).hasValue(0);
        });

    assertThat(wakeUps).hasValue(1);
  }

  @Test
  void aRollbackWakesNothing() {
    assertThatThrownBy(
            () ->
                transactions.executeWithoutResult(
                    status -> {
                      outbox.append(new OutboxMessage("test.wake", "agg-2", "{}"));
                      throw new IllegalStateException("business rule");
                    }))
        .isInstanceOf(IllegalStateException.class);

    assertThat(wakeUps).hasValue(0);
  }

  @Test
  void eachTransactionWakesOnce() {
    for (int i = 0; i < 3; i++) {
      transactions.executeWithoutResult(
          status -> outbox.append(new OutboxMessage("test.wake", "agg-3", "{}")));
    }

    assertThat(wakeUps).hasValue(3);
  }
}
