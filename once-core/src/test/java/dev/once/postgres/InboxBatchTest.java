package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.outbox.Completion;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The inbox's batch path on PostgreSQL: a batch's records in one statement, its new messages
 * applied once each in delivery order in one transaction, all or nothing; concurrent batches that
 * share messages apply each once and never deadlock.
 */
@Timeout(60)
class InboxBatchTest {
  private final EffectTable effects = new EffectTable(TestDatabase.dataSource());
  private final Inbox inbox =
      Inbox.of(
          PostgresStores.inboxStore(TestDatabase.dataSource()),
          Transactions.of(TestDatabase.dataSource()));
  private final List<List<UUID>> batches = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void aBatchAppliesEachNewMessageOnceInDeliveryOrderAndSkipsDuplicates() throws Exception {
    BatchInboxConsumer consumer = counting("batch-a", null);
    List<InboxMessage> messages = messages(6);
    assertThat(inbox.deliver(consumer, messages.get(1))).isTrue(); // applied before, alone
    List<InboxMessage> delivered = new ArrayList<>(messages);
    delivered.add(messages.get(4)); // the same message twice in one batch

    Set<UUID> applied = inbox.deliverAll(consumer, delivered, Completion.NONE);

    List<UUID> expected = new ArrayList<>();
    for (InboxMessage m : messages) {
      if (m != messages.get(1)) {
        expected.add(m.messageId());
      }
    }
    assertThat(applied).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(batches).containsExactly(expected);
    for (InboxMessage m : messages) {
      assertThat(effects.applied(m.messageId(), "batch-a")).isEqualTo(1);
      assertThat(records(m.messageId(), "batch-a")).isEqualTo(1);
    }

    assertThat(inbox.deliverAll(consumer, messages, Completion.NONE)).isEmpty();
    assertThat(batches).hasSize(1); // nothing new: the consumer is not called
  }

  @Test
  void aFailingBatchCommitsNothingAndOneAtATimeIsolatesThePoisonMessage() throws Exception {
    List<InboxMessage> messages = messages(5);
    UUID poison = messages.get(2).messageId();
    BatchInboxConsumer consumer = counting("batch-b", poison);

    assertThatThrownBy(() -> inbox.deliverAll(consumer, messages, Completion.NONE))
        .isInstanceOf(IllegalStateException.class);
    for (InboxMessage m : messages) {
      assertThat(effects.applied(m.messageId(), "batch-b")).isZero();
      assertThat(records(m.messageId(), "batch-b")).isZero();
    }

    for (InboxMessage m : messages) {
      if (m.messageId().equals(poison)) {
        assertThatThrownBy(() -> inbox.deliver(consumer, m))
            .isInstanceOf(IllegalStateException.class);
      } else {
        assertThat(inbox.deliver(consumer, m)).isTrue();
      }
    }
    for (InboxMessage m : messages) {
      int once = m.messageId().equals(poison) ? 0 : 1;
      assertThat(effects.applied(m.messageId(), "batch-b")).isEqualTo(once);
      assertThat(records(m.messageId(), "batch-b")).isEqualTo(once);
    }
  }

  @Test
  void theCompletionCommitsWithTheBatchAlsoWhenEveryMessageIsADuplicate() throws Exception {
    BatchInboxConsumer consumer = counting("batch-c", null);
    List<InboxMessage> messages = messages(3);
    inbox.deliverAll(consumer, messages, Completion.NONE);
    List<Connection> joined = new ArrayList<>();
    Completion completion =
        new Completion() {
          @Override
          public void completeIn(Connection tx) {
            joined.add(tx);
          }

          @Override
          public boolean joined() {
            return !joined.isEmpty();
          }
        };

    assertThat(inbox.deliverAll(consumer, messages, completion)).isEmpty();
    assertThat(joined).hasSize(1);
  }

  @Test
  void aBatchThatMeetsAnotherBatchsUncommittedRecordsWaitsThenAppliesOnlyWhatIsNew()
      throws Exception {
    List<InboxMessage> messages = messages(6);
    CountDownLatch firstHolds = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BatchInboxConsumer first =
        new Counting("batch-d", null) {
          @Override
          public void consumeAll(Connection tx, List<InboxMessage> batch) throws Exception {
            super.consumeAll(tx, batch);
            firstHolds.countDown();
            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
          }
        };
    BatchInboxConsumer second = counting("batch-d", null);
    List<InboxMessage> reversed = new ArrayList<>(messages);
    Collections.reverse(reversed);

    Future<Set<UUID>> a =
        threads.submit(() -> inbox.deliverAll(first, messages.subList(0, 4), Completion.NONE));
    assertThat(firstHolds.await(30, TimeUnit.SECONDS)).isTrue();
    Future<Set<UUID>> b = threads.submit(() -> inbox.deliverAll(second, reversed, Completion.NONE));
    await().atMost(Duration.ofSeconds(30)).until(InboxBatchTest::anInboxInsertWaitsOnALock);
    release.countDown();

    assertThat(a.get(30, TimeUnit.SECONDS)).hasSize(4);
    assertThat(b.get(30, TimeUnit.SECONDS))
        .containsExactlyInAnyOrder(messages.get(4).messageId(), messages.get(5).messageId());
    for (InboxMessage m : messages) {
      assertThat(effects.applied(m.messageId(), "batch-d")).isEqualTo(1);
    }
  }

  @Test
  void concurrentBatchesOfTheSameMessagesInOppositeOrdersNeverDeadlock() throws Exception {
    for (int round = 0; round < 20; round++) {
      List<InboxMessage> messages = messages(40);
      List<InboxMessage> reversed = new ArrayList<>(messages);
      Collections.reverse(reversed);
      BatchInboxConsumer consumer = counting("batch-e", null);
      CountDownLatch start = new CountDownLatch(1);
      Future<Set<UUID>> a =
          threads.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                return inbox.deliverAll(consumer, messages, Completion.NONE);
              });
      Future<Set<UUID>> b =
          threads.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                return inbox.deliverAll(consumer, reversed, Completion.NONE);
              });
      start.countDown();

      // A deadlock would fail one of them with SQL state 40P01.
      Set<UUID> byA = a.get(30, TimeUnit.SECONDS);
      Set<UUID> byB = b.get(30, TimeUnit.SECONDS);
      assertThat(byA.size() + byB.size()).isEqualTo(messages.size());
      for (InboxMessage m : messages) {
        assertThat(effects.applied(m.messageId(), "batch-e")).isEqualTo(1);
      }
    }
  }

  private BatchInboxConsumer counting(String name, UUID poison) {
    return new Counting(name, poison);
  }

  /** Applies one effect per message; throws on {@code poison}; records each batch it is given. */
  private class Counting implements BatchInboxConsumer {
    private final String name;
    private final UUID poison;

    Counting(String name, UUID poison) {
      this.name = name;
      this.poison = poison;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Set<String> types() {
      return Set.of("order.placed");
    }

    @Override
    public void consume(Connection tx, InboxMessage message) throws Exception {
      EffectTable.apply(tx, message.messageId(), name);
      if (message.messageId().equals(poison)) {
        throw new IllegalStateException("poison");
      }
    }

    @Override
    public void consumeAll(Connection tx, List<InboxMessage> messages) throws Exception {
      batches.add(messages.stream().map(InboxMessage::messageId).toList());
      BatchInboxConsumer.super.consumeAll(tx, messages);
    }
  }

  private static List<InboxMessage> messages(int n) {
    List<InboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      messages.add(new InboxMessage(UUID.randomUUID(), "order.placed", "ord_" + i, "{\"n\":1}"));
    }
    return messages;
  }

  private static long records(UUID messageId, String consumer) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM once.inbox WHERE message_id = ? AND consumer = ?")) {
      ps.setObject(1, messageId);
      ps.setString(2, consumer);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static boolean anInboxInsertWaitsOnALock() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO once.inbox%'
                """)) {
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }
}
