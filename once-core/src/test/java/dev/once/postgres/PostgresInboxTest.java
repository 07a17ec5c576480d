package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The inbox on PostgreSQL: each (message, consumer) is applied once, whatever the redeliveries. */
class PostgresInboxTest {
  private final EffectTable effects = new EffectTable(TestDatabase.dataSource());
  private final Inbox inbox =
      Inbox.of(
          PostgresStores.inboxStore(TestDatabase.dataSource()),
          Transactions.of(TestDatabase.dataSource()));
  private final ExecutorService threads = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void firstDeliveryAppliesTheEffectAndRedeliveriesDoNothing() throws Exception {
    InboxMessage message = message();
    InboxConsumer consumer = counting("reserve-stock");

    assertThat(inbox.deliver(consumer, message)).isTrue();
    assertThat(inbox.deliver(consumer, message)).isFalse();
    assertThat(inbox.deliver(consumer, message)).isFalse();

    assertThat(effects.applied(message.messageId(), "reserve-stock")).isEqualTo(1);
    assertThat(records(message.messageId())).isEqualTo(1);
  }

  @Test
  void simultaneousDeliveriesOfOneMessageApplyItOnce() throws Exception {
    InboxMessage message = message();
    InboxConsumer consumer = counting("reserve-stock");
    CyclicBarrier start = new CyclicBarrier(2);
    Callable<Boolean> deliver =
        () -> {
          start.await(10, TimeUnit.SECONDS);
          return inbox.deliver(consumer, message);
        };

    Future<Boolean> a = threads.submit(deliver);
    Future<Boolean> b = threads.submit(deliver);

    assertThat(List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS)))
        .containsExactlyInAnyOrder(true, false);
    assertThat(effects.applied(message.messageId(), "reserve-stock")).isEqualTo(1);
  }

  @Test
  void secondDeliveryWaitsForTheFirstsTransactionAndThenSkips() throws Exception {
    InboxMessage message = message();
    CountDownLatch firstInside = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    InboxConsumer slow =
        consumer(
            "reserve-stock",
            (tx, m) -> {
              EffectTable.apply(tx, m.messageId(), "reserve-stock");
              firstInside.countDown();
              releaseFirst.await(30, TimeUnit.SECONDS);
            });
    Future<Boolean> first = threads.submit(() -> inbox.deliver(slow, message));
    assertThat(firstInside.await(30, TimeUnit.SECONDS)).isTrue();

    Future<Boolean> second = threads.submit(() -> inbox.deliver(slow, message));
    // The second's insert blocks on the first's uncommitted row: it neither applies nor skips yet.
    await().atMost(Duration.ofSeconds(30)).until(PostgresInboxTest::anInboxInsertWaitsOnALock);
    assertThat(second).isNotDone();
    releaseFirst.countDown();

    assertThat(first.get(30, TimeUnit.SECONDS)).isTrue();
    assertThat(second.get(30, TimeUnit.SECONDS)).isFalse();
    assertThat(effects.applied(message.messageId(), "reserve-stock")).isEqualTo(1);
  }

  @Test
  void aConsumerThatThrowsLeavesNoRecordAndTheRedeliveryAppliesIt() throws Exception {
    InboxMessage message = message();
    AtomicInteger calls = new AtomicInteger();
    InboxConsumer flaky =
        consumer(
            "send-mail",
            (tx, m) -> {
              EffectTable.apply(tx, m.messageId(), "send-mail");
              if (calls.getAndIncrement() == 0) {
                throw new IllegalStateException("mail server down");
              }
            });

    assertThatThrownBy(() -> inbox.deliver(flaky, message))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("mail server down");
    assertThat(records(message.messageId())).isZero();
    assertThat(effects.applied(message.messageId(), "send-mail")).isZero();

    assertThat(inbox.deliver(flaky, message)).isTrue();
    assertThat(effects.applied(message.messageId(), "send-mail")).isEqualTo(1);
  }

  @Test
  void twoConsumersOfOneMessageAreIndependent() throws Exception {
    InboxMessage message = message();
    InboxConsumer stock = counting("reserve-stock");
    InboxConsumer mail = counting("send-mail");

    assertThat(inbox.deliver(stock, message)).isTrue();
    assertThat(inbox.deliver(stock, message)).isFalse();
    assertThat(inbox.deliver(mail, message)).isTrue();
    assertThat(inbox.deliver(mail, message)).isFalse();

    assertThat(effects.applied(message.messageId(), "reserve-stock")).isEqualTo(1);
    assertThat(effects.applied(message.messageId(), "send-mail")).isEqualTo(1);
    assertThat(records(message.messageId())).isEqualTo(2);
  }

  @Test
  void badConsumerNamesAreRefusedBeforeAnyWrite() {
    InboxMessage message = message();
    assertThatThrownBy(() -> inbox.deliver(counting(""), message))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 200 characters");
    assertThatThrownBy(() -> inbox.deliver(counting("x".repeat(201)), message))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("201 characters");
  }

  @Test
  void purgeDeletesOnlyRecordsOlderThanTheRetentionOldestFirst() throws Exception {
    // Records are stamped by the database's clock; these are then moved into the past: three a
    // minute apart, more than a week old, and one a day old. The other tests' records are recent,
    // so the purge cannot touch theirs.
    Inbox old = inbox;
    InboxConsumer consumer = counting("purge-test");
    List<InboxMessage> oldest = List.of(message(), message(), message());
    InboxMessage recent = message();
    for (InboxMessage m : oldest) {
      old.deliver(consumer, m);
    }
    old.deliver(consumer, recent);
    for (int i = 0; i < oldest.size(); i++) {
      receivedEarlier(oldest.get(i).messageId(), Duration.ofDays(8).plusMinutes(3 - i));
    }
    receivedEarlier(recent.messageId(), Duration.ofDays(1));

    assertThat(old.purge(Duration.ofDays(3), 2)).isEqualTo(2);
    assertThat(records(oldest.get(0).messageId())).isZero();
    assertThat(records(oldest.get(1).messageId())).isZero();
    assertThat(records(oldest.get(2).messageId())).isEqualTo(1);

    assertThat(old.purge(Duration.ofDays(3), 2)).isEqualTo(1);
    assertThat(records(oldest.get(2).messageId())).isZero();
    assertThat(records(recent.messageId())).isEqualTo(1);
    assertThat(old.purge(Duration.ofDays(3), 2)).isZero();

    // A purged record no longer dedupes: the retention must outlast every redelivery.
    assertThat(old.deliver(consumer, oldest.get(0))).isTrue();
    assertThat(old.deliver(consumer, recent)).isFalse();
  }

  private static void receivedEarlier(UUID messageId, Duration by) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE once.inbox SET received_at = received_at - CAST(? AS bigint)"
                    + " * interval '1 second' WHERE message_id = ?")) {
      ps.setLong(1, by.toSeconds());
      ps.setObject(2, messageId);
      ps.executeUpdate();
    }
  }

  private static InboxMessage message() {
    return new InboxMessage(UUID.randomUUID(), "order.placed", "ord_1", "{\"n\":1}");
  }

  private static InboxConsumer counting(String name) {
    return consumer(name, (tx, m) -> EffectTable.apply(tx, m.messageId(), name));
  }

  interface Effect {
    void apply(Connection tx, InboxMessage message) throws Exception;
  }

  private static InboxConsumer consumer(String name, Effect effect) {
    return new InboxConsumer() {
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
        effect.apply(tx, message);
      }
    };
  }

  private static long records(UUID messageId) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM once.inbox WHERE message_id = ?")) {
      ps.setObject(1, messageId);
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
