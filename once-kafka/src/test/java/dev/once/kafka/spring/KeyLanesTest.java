package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.inbox.InboxMessage;
import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code once.kafka.consumer.key-lanes}: one hot partition (one partition, one listener thread),
 * its records of a poll written in one producer batch so one listener call holds them all, split by
 * key into lanes. The lanes run at the same time, each in its own transaction; the records of a key
 * are applied in offset order; a poison record holds back only the later records of its key, is
 * retried alone and dead-lettered alone, and what other lanes applied past it is found applied when
 * the partition is read again from it. Each effect once.
 */
@Timeout(120)
class KeyLanesTest {
  private static final int MAX_ATTEMPTS = 3;

  /** One call of the consumer: the message, its key, and the transaction it ran in. */
  private record Attempt(UUID id, String key, long transaction) {}

  @Test
  void theLanesOfAHotPartitionRunAtTheSameTimeAndKeepEachKeysOrder() throws Exception {
    int lanes = 4;
    String run = TestBroker.run();
    List<String> keys = keysInDistinctLanes(run, lanes);
    // Each key's first record waits until every lane's first record is in its transaction: with
    // the lanes applied one after the other (or as one batch) the barrier breaks after 30 s.
    CyclicBarrier together = new CyclicBarrier(lanes);
    AtomicBoolean broken = new AtomicBoolean();
    Set<String> waited = ConcurrentHashMap.newKeySet();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      order.addAll(keys);
    }
    Result result =
        run(
            run,
            lanes,
            order,
            (message, index) -> {
              if (waited.add(message.aggregateId())) {
                try {
                  together.await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                  broken.set(true);
                }
              }
              return false;
            });

    assertThat(broken).as("the lanes' first records waited for each other in vain").isFalse();
    assertThat(result.attempts).hasSize(order.size());
    for (String key : keys) {
      List<Attempt> ofKey = result.attempts.stream().filter(a -> a.key().equals(key)).toList();
      assertThat(ofKey.stream().map(Attempt::transaction).distinct())
          .as("one transaction for the lane of %s", key)
          .hasSize(1);
      assertThat(ofKey.stream().map(Attempt::id).toList())
          .as("the records of %s in offset order", key)
          .containsExactlyElementsOf(result.idsOf(key));
    }
    assertThat(result.attempts.stream().map(Attempt::transaction).distinct())
        .as("one transaction per lane")
        .hasSize(lanes);
    assertThat(result.appliedInOrderPerKey()).isTrue();
    assertThat(TransportApps.counter(result.registry, result.consumer, "duplicate")).isZero();
  }

  @Test
  void aPoisonRecordHoldsBackOnlyItsKeyAndIsDeadLetteredAlone() throws Exception {
    String run = TestBroker.run();
    List<String> keys = keysInDistinctLanes(run, 2);
    String a = keys.get(0), p = keys.get(1);
    // a0 P0 a1 p1 a2 p2: the poison is the partition's second record, on key p.
    List<String> order = List.of(a, p, a, p, a, p);
    Result result = run(run, 2, order, (message, index) -> index == 1);
    UUID poison = result.ids.get(1);

    assertThat(PoisonRecordTest.deadLetters(result.registry, result.consumer)).isEqualTo(1.0);
    assertThat(result.attempts.stream().filter(x -> x.id().equals(poison)))
        .as("attempts at the poison: in its lane's batch, then alone")
        .hasSize(MAX_ATTEMPTS + 1);
    int lastAtPoison = lastIndexOf(result.attempts, poison);
    // Key a's lane applied all of a's records in the first delivery, beside the failing lane.
    for (UUID id : result.idsOf(a)) {
      assertThat(result.attempts.stream().filter(x -> x.id().equals(id))).hasSize(1);
      assertThat(lastIndexOf(result.attempts, id)).isLessThan(lastAtPoison);
    }
    // Key p's records behind the poison: once each, after its last attempt.
    for (UUID id : result.idsOf(p).subList(1, 3)) {
      assertThat(result.attempts.stream().filter(x -> x.id().equals(id))).hasSize(1);
      assertThat(lastIndexOf(result.attempts, id)).isGreaterThan(lastAtPoison);
    }
    assertThat(result.appliedInOrderPerKey()).isTrue();
    PoisonRecordTest.assertApplied(result.registry, result.consumer, 5.0);
    // a1 and a2 were read again from the poison on, and found applied.
    assertThat(TransportApps.counter(result.registry, result.consumer, "duplicate")).isEqualTo(2.0);
  }

  /** What the consumer did with the records. */
  private record Result(
      List<UUID> ids,
      List<String> keys,
      List<Attempt> attempts,
      List<InboxMessage> applied,
      MeterRegistry registry,
      String consumer) {
    List<UUID> idsOf(String key) {
      List<UUID> of = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        if (keys.get(i).equals(key)) {
          of.add(ids.get(i));
        }
      }
      return of;
    }

    /** Whether the committed effects of each key are in its records' offset order. */
    boolean appliedInOrderPerKey() {
      for (String key : Set.copyOf(keys)) {
        List<UUID> committed =
            applied.stream()
                .filter(m -> m.aggregateId().equals(key))
                .map(InboxMessage::messageId)
                .toList();
        List<UUID> expected = idsOf(key).stream().filter(committed::contains).toList();
        if (!committed.equals(expected)) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Writes a record per entry of {@code keys} onto a one-partition topic in one producer batch, to
   * a batch consumer with {@code lanes} key lanes that fails a message when {@code failing} says so
   * (given the message and its record's index), and waits until every record that does not fail is
   * applied once and any that fails is dead-lettered.
   */
  private static Result run(
      String run, int lanes, List<String> keys, BiFunction<InboxMessage, Integer, Boolean> failing)
      throws Exception {
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    List<String> properties =
        TransportApps.onePartition(
            run,
            "test.batch=true",
            "once.kafka.consumer.key-lanes=" + lanes,
            "once.kafka.consumer.max-attempts=" + MAX_ATTEMPTS);
    try (ConfigurableApplicationContext app = TransportApps.start(properties)) {
      DataSource dataSource = app.getBean(DataSource.class);
      EffectTable effects = new EffectTable(dataSource);
      MeterRegistry registry = app.getBean(MeterRegistry.class);
      KafkaTestApplication.EffectConsumer effect =
          app.getBean(KafkaTestApplication.EffectConsumer.class);
      JdbcTemplate jdbc = new JdbcTemplate(dataSource);
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        ids.add(UUID.randomUUID());
      }
      List<Attempt> attempts = new CopyOnWriteArrayList<>();
      effect.failing =
          message -> {
            // In the consumer's transaction: JdbcTemplate joins it.
            Long tx = jdbc.queryForObject("SELECT txid_current()", Long.class);
            attempts.add(new Attempt(message.messageId(), message.aggregateId(), tx));
            return failing.apply(message, ids.indexOf(message.messageId()));
          };
      Set<UUID> failed = ConcurrentHashMap.newKeySet();
      try (KafkaProducer<String, String> producer = PoisonInBatchTest.oneBatchProducer()) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
          sent.add(
              producer.send(
                  PoisonInBatchTest.record(type, ids.get(i), keys.get(i), "{\"n\": " + i + "}")));
        }
        producer.flush();
        for (Future<RecordMetadata> future : sent) {
          future.get(30, TimeUnit.SECONDS);
        }
      }
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> {
                failed.clear();
                attempts.forEach(
                    x -> {
                      if (effects.applied(x.id(), consumer) == 0) {
                        failed.add(x.id());
                      }
                    });
                return ids.stream()
                    .allMatch(
                        id ->
                            effects.applied(id, consumer) == 1
                                || (failed.contains(id)
                                    && PoisonRecordTest.deadLetters(registry, consumer)
                                        >= failed.size()));
              });
      int expectedApplied = ids.size() - failed.size();
      await().atMost(Duration.ofSeconds(10)).until(() -> effect.applied.size() == expectedApplied);
      for (UUID id : ids) {
        assertThat(effects.applied(id, consumer))
            .as("effects of %s", id)
            .isEqualTo(failed.contains(id) ? 0 : 1);
        if (failed.contains(id)) {
          assertThat(KafkaTestSupport.inboxRows(dataSource, id))
              .as("inbox rows of %s", id)
              .isZero();
        }
      }
      return new Result(
          ids, keys, List.copyOf(attempts), List.copyOf(effect.applied), registry, consumer);
    }
  }

  /** {@code lanes} keys of this run, each in a lane of its own. */
  private static List<String> keysInDistinctLanes(String run, int lanes) {
    Map<Integer, String> byLane = new LinkedHashMap<>();
    for (int i = 0; byLane.size() < lanes; i++) {
      String key = "k" + i + "-" + run;
      byLane.putIfAbsent(PartitionBatches.lane(key, lanes), key);
    }
    return List.copyOf(byLane.values());
  }

  private static int lastIndexOf(List<Attempt> attempts, UUID id) {
    for (int i = attempts.size() - 1; i >= 0; i--) {
      if (attempts.get(i).id().equals(id)) {
        return i;
      }
    }
    return -1;
  }
}
