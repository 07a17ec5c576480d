package dev.once.kafka;

import static dev.once.kafka.KafkaTestSupport.createTopic;
import static dev.once.kafka.KafkaTestSupport.header;
import static dev.once.kafka.KafkaTestSupport.outboxColumn;
import static dev.once.kafka.KafkaTestSupport.producer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.FaultyProducer.Fault;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStore;
import dev.once.outbox.RetryPolicy;
import dev.once.postgres.PostgresStores;
import dev.once.postgres.WalFlush;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The publisher on a relay built by hand, on a real broker and a real outbox: per key, a later
 * event is never on the topic before an earlier one, when the first event of an aggregate fails (a
 * failed send, a refused send, a lost acknowledgement) while other aggregates' events succeed, and
 * when the earlier event's transaction commits late (the later append waits for it on the
 * aggregate's lock); nothing is lost. A record too large for the producer or for the broker turns
 * its row dead after one attempt instead of being retried.
 */
@Timeout(120)
class PublishOrderTest {
  private static final DataSource DS = TestDatabase.dataSource();
  private static final OutboxStore STORE = PostgresStores.outboxStore(DS);
  private static final Outbox OUTBOX = Outbox.of(STORE);
  private static final RetryPolicy FAST =
      new RetryPolicy(10, Duration.ofMillis(20), 1.0, Duration.ofMillis(20), 0.0);

  @Test
  void aFailingFirstEventOfAnAggregateKeepsItsLaterEventsBehindItAndLosesNothing()
      throws Exception {
    String run = TestBroker.run();
    String type = "test.order." + run;
    createTopic(type, 3);
    List<String> aggregates = List.of("X-" + run, "A-" + run, "B-" + run, "C-" + run);
    Map<String, List<OutboxEntry>> appended = new LinkedHashMap<>();
    for (int seq = 0; seq < 5; seq++) {
      for (String aggregate : aggregates) {
        appended
            .computeIfAbsent(aggregate, a -> new ArrayList<>())
            .add(append(type, aggregate, "{\"seq\": " + seq + "}"));
      }
    }
    String first = appended.get("X-" + run).get(0).messageId().toString();
    List<Fault> script = List.of(Fault.FAIL, Fault.THROW, Fault.LOSE_ACK);
    AtomicInteger attemptsAtFirst = new AtomicInteger();
    Function<ProducerRecord<String, String>, Fault> faults =
        record -> {
          if (first.equals(FaultyProducer.messageId(record))) {
            int attempt = attemptsAtFirst.getAndIncrement();
            return attempt < script.size() ? script.get(attempt) : Fault.NONE;
          }
          return Fault.NONE;
        };

    try (KafkaProducer<String, String> real = producer(Map.of());
        OutboxRelay relay = relay(type, new FaultyProducer(real, faults))) {
      relay.start();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  appended.values().stream()
                      .flatMap(List::stream)
                      .allMatch(e -> "delivered".equals(outboxColumn(DS, e.id(), "state"))));
    }

    assertThat(attemptsAtFirst.get()).as("attempts at X's first event").isEqualTo(4);
    List<ConsumerRecord<String, String>> records = TestBroker.readAll(type);
    Map<String, List<String>> firstOccurrences = new HashMap<>();
    Map<String, Integer> copies = new HashMap<>();
    for (ConsumerRecord<String, String> record : records) {
      String id = header(record, OnceHeaders.MESSAGE_ID);
      if (copies.merge(id, 1, Integer::sum) == 1) {
        firstOccurrences.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(id);
      }
    }
    for (Map.Entry<String, List<OutboxEntry>> aggregate : appended.entrySet()) {
      assertThat(firstOccurrences.get(aggregate.getKey()))
          .as("%s's events on the topic, by first occurrence", aggregate.getKey())
          .containsExactlyElementsOf(
              aggregate.getValue().stream().map(e -> e.messageId().toString()).toList());
    }
    // The send whose acknowledgement was lost reached the topic: X's first event is there twice,
    // both copies before X's second event.
    assertThat(copies.get(first)).isGreaterThanOrEqualTo(2);
    String second = appended.get("X-" + run).get(1).messageId().toString();
    List<String> xOnTopic =
        records.stream()
            .filter(r -> r.key().equals("X-" + run))
            .map(r -> header(r, OnceHeaders.MESSAGE_ID))
            .toList();
    assertThat(xOnTopic.lastIndexOf(first)).isLessThan(xOnTopic.indexOf(second));
  }

  @Test
  void aLaterAppendWaitsForTheEarlierTransactionOfItsAggregateAndIsPublishedAfterIt()
      throws Exception {
    String run = TestBroker.run();
    String type = "test.order." + run;
    String aggregate = "late-" + run;
    createTopic(type, 3);
    try (KafkaProducer<String, String> real = producer(Map.of());
        OutboxRelay relay = relay(type, new FaultyProducer(real, record -> Fault.NONE));
        Connection a = TestDatabase.transaction();
        Connection b = TestDatabase.transaction()) {
      relay.start();
      OutboxEntry one = OUTBOX.append(a, new OutboxMessage(type, aggregate, "{\"n\": 1}"));
      int bPid = backendPid(b);
      b.commit();
      CountDownLatch appendedTwo = new CountDownLatch(1);
      CompletableFuture<OutboxEntry> two =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  OutboxEntry entry =
                      OUTBOX.append(b, new OutboxMessage(type, aggregate, "{\"n\": 2}"));
                  appendedTwo.countDown();
                  b.commit();
                  return entry;
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });

      // B waits on the aggregate's advisory lock, which A holds.
      await().atMost(Duration.ofSeconds(10)).until(() -> waitsOnAdvisoryLock(bPid));
      assertThat(appendedTwo.getCount()).isEqualTo(1);
      assertThat(two).isNotDone();

      a.commit();
      OutboxEntry entryTwo = two.get(10, TimeUnit.SECONDS);
      assertThat(entryTwo.id()).isGreaterThan(one.id());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "delivered".equals(outboxColumn(DS, one.id(), "state"))
                      && "delivered".equals(outboxColumn(DS, entryTwo.id(), "state")));
      assertThat(TestBroker.readAll(type))
          .extracting(r -> header(r, OnceHeaders.MESSAGE_ID))
          .containsExactly(one.messageId().toString(), entryTwo.messageId().toString());
    }
  }

  @Test
  void aRecordTooLargeForTheProducerTurnsItsRowDeadAtOnce() throws Exception {
    tooLargeTurnsDead(Map.of(), 2 * 1024 * 1024);
  }

  @Test
  void aRecordTooLargeForTheBrokerTurnsItsRowDeadAtOnce() throws Exception {
    // The producer takes up to 4 MiB; the broker's message.max.bytes is its default, about 1 MiB.
    tooLargeTurnsDead(Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024), 1536 * 1024);
  }

  private void tooLargeTurnsDead(Map<String, Object> producerConfig, int size) throws Exception {
    String run = TestBroker.run();
    String type = "test.order." + run;
    createTopic(type, 3);
    OutboxEntry big = append(type, "big-" + run, "{\"big\": \"" + "x".repeat(size) + "\"}");
    OutboxEntry small = append(type, "small-" + run, "{\"n\": 1}");
    try (KafkaProducer<String, String> real = producer(producerConfig)) {
      FaultyProducer producer = new FaultyProducer(real, record -> Fault.NONE);
      try (OutboxRelay relay = relay(type, producer)) {
        relay.start();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    "dead".equals(outboxColumn(DS, big.id(), "state"))
                        && "delivered".equals(outboxColumn(DS, small.id(), "state")));
        // After the refusal, the same producer still publishes.
        OutboxEntry after = append(type, "after-" + run, "{\"n\": 2}");
        relay.wakeUp();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> "delivered".equals(outboxColumn(DS, after.id(), "state")));
      }
      assertThat(outboxColumn(DS, big.id(), "attempts")).isEqualTo("1");
      assertThat(outboxColumn(DS, big.id(), "last_error")).contains("RecordTooLargeException");
      assertThat(producer.sends().stream().filter(s -> s.equals(big.messageId().toString())))
          .hasSize(1);
      assertThat(TestBroker.readAll(type))
          .extracting(r -> header(r, OnceHeaders.MESSAGE_ID))
          .doesNotContain(big.messageId().toString());
    }
  }

  private static OutboxRelay relay(String type, Producer<String, String> producer) {
    KafkaEventPublisher publisher =
        new KafkaEventPublisher(
            producer,
            EventTopics.of(Map.of(), ".dlt"),
            Set.of(type),
            Duration.ofSeconds(1),
            PublishListener.NONE,
            WalFlush.on(TestDatabase.dataSource()));
    return OutboxRelay.builder(STORE)
        .handler(type, publisher, FAST)
        .workers(4)
        .handlerTimeout(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .name("order-" + type)
        .build();
  }

  private static OutboxEntry append(String type, String aggregate, String json)
      throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      OutboxEntry entry = OUTBOX.append(tx, new OutboxMessage(type, aggregate, json));
      tx.commit();
      return entry;
    }
  }

  private static int backendPid(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static boolean waitsOnAdvisoryLock(int pid) throws SQLException {
    try (Connection c = DS.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_locks"
                    + " WHERE pid = ? AND locktype = 'advisory' AND NOT granted")) {
      ps.setInt(1, pid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) > 0;
      }
    }
  }
}
