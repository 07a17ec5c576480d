package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import dev.once.testing.MutableClock;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Two relays with worker pools of their own on one database: every row is handled, no row by two
 * handlers at once, and the rows of each aggregate one at a time in commit order. The relays' own
 * clock stands still, months behind the database's: leases and due times are the database's clock,
 * so no lease runs out while its heartbeat renews it, and every row is handled exactly once.
 */
class TwoRelaysTest {
  private static final int AGGREGATES = 100;
  private static final int ROWS_PER_AGGREGATE = 30;

  private final DataSource ds = OutboxDatabase.fresh();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  private final Set<Long> rowsInFlight = ConcurrentHashMap.newKeySet();
  private final Set<String> aggregatesInFlight = ConcurrentHashMap.newKeySet();
  private final Queue<String> overlaps = new ConcurrentLinkedQueue<>();
  private final Map<Long, Integer> handledTimes = new ConcurrentHashMap<>();
  private final Map<String, Queue<Long>> handledPerAggregate = new ConcurrentHashMap<>();

  private Delivery handle(OutboxRecord row) {
    if (!rowsInFlight.add(row.id())) {
      overlaps.add("row " + row.id());
    }
    if (!aggregatesInFlight.add(row.aggregateId())) {
      overlaps.add("aggregate " + row.aggregateId());
    }
    handledTimes.merge(row.id(), 1, Integer::sum);
    handledPerAggregate
        .computeIfAbsent(row.aggregateId(), a -> new ConcurrentLinkedQueue<>())
        .add(row.id());
    Thread.yield(); // give the other relay a chance to overlap, were it allowed to
    aggregatesInFlight.remove(row.aggregateId());
    rowsInFlight.remove(row.id());
    return Delivery.done();
  }

  private OutboxRelay relay(String name) {
    return OutboxRelay.builder(store)
        .handler("t", this::handle)
        .clock(clock)
        .name(name)
        .workers(8)
        .batchSize(20)
        .pollInterval(Duration.ofMillis(50))
        .build();
  }

  @Test
  void everyRowIsHandledOnceNeverConcurrentlyAndInOrderPerAggregate() throws Exception {
    Map<String, List<Long>> appended = new LinkedHashMap<>();
    for (int round = 0; round < ROWS_PER_AGGREGATE; round++) {
      try (Connection tx = OutboxDatabase.transaction(ds)) {
        for (int a = 0; a < AGGREGATES; a++) {
          String aggregate = "agg-" + a;
          OutboxEntry entry = outbox.append(tx, new OutboxMessage("t", aggregate, "{}"));
          appended.computeIfAbsent(aggregate, k -> new ArrayList<>()).add(entry.id());
        }
        tx.commit();
      }
    }
    int total = AGGREGATES * ROWS_PER_AGGREGATE;

    try (OutboxRelay first = relay("first");
        OutboxRelay second = relay("second")) {
      CyclicBarrier together = new CyclicBarrier(2);
      Thread other =
          new Thread(
              () -> {
                try {
                  together.await(10, TimeUnit.SECONDS);
                  second.start();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      other.start();
      together.await(10, TimeUnit.SECONDS);
      first.start();
      other.join();

      await()
          .atMost(Duration.ofSeconds(120))
          .until(
              () ->
                  scalar(ds, "SELECT count(*) FROM once.outbox WHERE state = 'delivered'")
                      == total);
    }

    assertThat(overlaps).isEmpty();
    assertThat(handledTimes).hasSize(total);
    assertThat(handledTimes.values()).containsOnly(1);
    for (Map.Entry<String, List<Long>> e : appended.entrySet()) {
      assertThat(handledPerAggregate.get(e.getKey()))
          .as("order of %s", e.getKey())
          .containsExactlyElementsOf(e.getValue());
    }
  }
}
