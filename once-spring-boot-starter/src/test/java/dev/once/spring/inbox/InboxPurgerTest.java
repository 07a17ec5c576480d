package dev.once.spring.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.postgres.PostgresStores;
import dev.once.spring.OnceSchemaMigration;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The purge removes every record older than the retention over several batches, keeps the rest. */
class InboxPurgerTest {

  @Test
  void purgeNowDeletesAllOldRecordsInBatches() throws Exception {
    DriverManagerDataSource ds =
        new DriverManagerDataSource(
            dev.once.testing.TestDatabase.jdbcUrl(), "postgres", "postgres");
    new OnceSchemaMigration(ds);
    Inbox past = Inbox.of(PostgresStores.inboxStore(ds), Transactions.of(ds));
    InboxConsumer consumer = consumer();
    List<UUID> old = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      InboxMessage m = new InboxMessage(UUID.randomUUID(), "t", "a", "{}");
      past.deliver(consumer, m);
      old.add(m.messageId());
    }
    // Records are stamped by the database's clock: these are moved past the retention.
    JdbcTemplate jdbc = new JdbcTemplate(ds);
    for (UUID id : old) {
      jdbc.update(
          "UPDATE once.inbox SET received_at = received_at - interval '2 days' WHERE message_id = ?",
          id);
    }
    Inbox now = past;
    InboxMessage fresh = new InboxMessage(UUID.randomUUID(), "t", "a", "{}");
    now.deliver(consumer, fresh);

    int deleted = new InboxPurger(now, Duration.ofDays(1), Duration.ofMinutes(1), 3).purgeNow();

    assertThat(deleted).isGreaterThanOrEqualTo(7);
    for (UUID id : old) {
      assertThat(count(jdbc, id)).isZero();
    }
    assertThat(count(jdbc, fresh.messageId())).isEqualTo(1);
  }

  /**
   * One run deletes more old records than a hundred batches, however many (issue 22, item 2): a run
   * used to stop after a hundred batches.
   */
  @Test
  void oneInboxPurgeRunDeletesMoreOldRecordsThanAHundredBatches() {
    DriverManagerDataSource ds =
        new DriverManagerDataSource(
            dev.once.testing.TestDatabase.jdbcUrl(), "postgres", "postgres");
    new OnceSchemaMigration(ds);
    JdbcTemplate jdbc = new JdbcTemplate(ds);
    String consumer = "pace-" + UUID.randomUUID();
    jdbc.update(
        """
        INSERT INTO once.inbox (message_id, consumer, received_at)
        SELECT gen_random_uuid(), ?, now() - interval '2 days' FROM generate_series(1, ?)
        """,
        consumer,
        1_000);
    jdbc.update(
        "INSERT INTO once.inbox (message_id, consumer, received_at) VALUES (?, ?, now())",
        UUID.randomUUID(),
        consumer);
    Inbox inbox =
        Inbox.of(PostgresStores.inboxStore(ds), Transactions.of(ds), java.time.Clock.systemUTC());

    int deleted = new InboxPurger(inbox, Duration.ofDays(1), Duration.ofMinutes(1), 3).purgeNow();

    assertThat(deleted).isGreaterThanOrEqualTo(1_000);
    assertThat(
            jdbc.queryForObject(
                "SELECT count(*) FROM once.inbox WHERE consumer = ?", Long.class, consumer))
        .as("only the recent record is left")
        .isEqualTo(1);
  }

  private static long count(JdbcTemplate jdbc, UUID id) {
    return jdbc.queryForObject(
        "SELECT count(*) FROM once.inbox WHERE message_id = ?", Long.class, id);
  }

  private static InboxConsumer consumer() {
    return new InboxConsumer() {
      @Override
      public String name() {
        return "purge-test";
      }

      @Override
      public Set<String> types() {
        return Set.of("t");
      }

      @Override
      public void consume(Connection tx, InboxMessage message) {}
    };
  }
}
