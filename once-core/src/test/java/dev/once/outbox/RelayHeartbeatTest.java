package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short lease and its heartbeat, the handler time-out, and a coordinator that survives an
 * {@link Error}: a live relay keeps its rows however long their handlers run, the rows of a dead
 * one are taken over once its lease runs out, a hung handler neither holds its row nor a worker.
 */
@Timeout(120)
class RelayHeartbeatTest {
  private static final Duration LEASE = Duration.ofSeconds(1);

  private final DataSource ds = OutboxDatabase.fresh();
  private final Clock clock = Clock.systemUTC();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  @Test
  void aLiveRelayKeepsItsRowPastManyLeasesAndNoOtherRelayTakesIt() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    try (OutboxRelay holder =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  calls.incrementAndGet();
                  inHandler.countDown();
                  release.await(60, TimeUnit.SECONDS);
                  return Delivery.done();
                })
            .lease(LEASE)
            .pollInterval(Duration.ofHours(1))
            .build()) {
      holder.start();
      assertThat(inHandler.await(30, TimeUnit.SECONDS)).isTrue();
      Instant firstLease = leaseUntil(id);
      // Three leases later the heartbeat has moved the lease on past the first one more than once.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> leaseUntil(id).isAfter(firstLease.plus(LEASE.multipliedBy(3))));

      OutboxRelay other =
          OutboxRelay.builder(store).handler("t", row -> Delivery.done()).lease(LEASE).build();
      assertThat(other.runOnce()).as("the row is still held").isZero();

      release.countDown();
      await().atMost(Duration.ofSeconds(30)).until(() -> "delivered".equals(state(ds, id)));
    }
    assertThat(calls).hasValue(1);
  }

  @Test
  void theRowsOfARelayThatDiedAreTakenOverOnceItsLeaseRunsOut() throws Exception {
    List<OutboxEntry> rows = appendCommitted(ds, outbox, "t", "A", "B", "C");
    // A relay claimed them, then its process died: no heartbeat, no outcome.
    UUID dead = UUID.randomUUID();
    assertThat(store.claim(dead, List.of("t"), 10, LEASE)).hasSize(3);

    Set<Long> handled = ConcurrentHashMap.newKeySet();
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                row -> {
                  handled.add(row.id());
                  return Delivery.done();
                })
            .lease(LEASE)
            .pollInterval(Duration.ofMillis(100))
            .build()) {
      relay.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> rows.stream().allMatch(e -> "delivered".equals(stateOf(e.id()))));
    }
    assertThat(handled).containsExactlyInAnyOrderElementsOf(ids(rows));
    for (OutboxEntry row : rows) {
      assertThat(column(ds, row.id(), "attempts")).isEqualTo("2");
    }
  }

  @Test
  void aHungHandlerIsCutOffRetriedAndDeadWhileOtherRowsFlowOnTheOtherWorkers() throws Exception {
    long hung = appendCommitted(ds, outbox, "hang", "H").get(0).id();
    List<OutboxEntry> others =
        appendCommitted(ds, outbox, "t", "A", "B", "C", "D", "E", "F", "G", "H2", "I", "J");
    CountDownLatch endOfTest = new CountDownLatch(1);
    AtomicInteger hungCalls = new AtomicInteger();
    AtomicInteger interrupts = new AtomicInteger();
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "hang",
                row -> {
                  hungCalls.incrementAndGet();
                  // Deaf to interrupts, as a blocking socket read is: only the test's end frees it.
                  while (true) {
                    try {
                      if (endOfTest.await(60, TimeUnit.SECONDS)) {
                        return Delivery.done();
                      }
                    } catch (InterruptedException e) {
                      interrupts.incrementAndGet();
                    }
                  }
                },
                new RetryPolicy(3, Duration.ofMillis(1), 1.0, Duration.ofMillis(1), 0.0))
            .handler("t", row -> Delivery.done())
            .handlerTimeout("hang", Duration.ofMillis(200))
            .workers(2)
            .lease(LEASE)
            .pollInterval(Duration.ofMillis(50))
            .build()) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> "dead".equals(state(ds, hung)));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> others.stream().allMatch(e -> "delivered".equals(stateOf(e.id()))));
      assertThat(column(ds, hung, "last_error"))
          .isEqualTo("attempt 3 was the last: the handler timed out after PT0.2S");
      assertThat(hungCalls).hasValue(3);
      assertThat(interrupts.get()).isGreaterThanOrEqualTo(3);
      assertThat(relay.stats().timedOut()).isEqualTo(3);
      assertThat(relay.stats().busyWorkers()).isZero();
    } finally {
      endOfTest.countDown();
    }
  }

  @Test
  void anErrorInTheCoordinatorIsLoggedAndTheRelayGoesOn() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    OutboxStore failingOnce = new ErrorOnFirstClaim(store);
    try (OutboxRelay relay =
        OutboxRelay.builder(failingOnce)
            .handler("t", row -> Delivery.done())
            .pollInterval(Duration.ofMillis(20))
            .build()) {
      relay.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> "delivered".equals(state(ds, id)));
      assertThat(relay.isRunning()).isTrue();
    }
  }

  @Test
  void aClosedOrUnstartedRelayIsNotRunning() {
    OutboxRelay relay = OutboxRelay.builder(store).handler("t", row -> Delivery.done()).build();
    assertThat(relay.isRunning()).isFalse();
    relay.start();
    assertThat(relay.isRunning()).isTrue();
    relay.close();
    assertThat(relay.isRunning()).isFalse();
  }

  private Instant leaseUntil(long id) throws SQLException {
    return OffsetDateTime.parse(column(ds, id, "lease_until").replace(' ', 'T') + ":00")
        .toInstant();
  }

  private String stateOf(long id) {
    try {
      return state(ds, id);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Long> ids(List<OutboxEntry> rows) {
    return rows.stream().map(OutboxEntry::id).toList();
  }

  /** Throws an {@link Error} from its first claim, as a bug or an exhausted JVM would. */
  private static final class ErrorOnFirstClaim extends DelegatingStore {
    private final AtomicInteger claims = new AtomicInteger();

    ErrorOnFirstClaim(OutboxStore store) {
      super(store);
    }

    @Override
    public List<OutboxRecord> claim(UUID claimId, List<String> types, int limit, Duration lease) {
      if (claims.getAndIncrement() == 0) {
        throw new AssertionError("a bug in the claim");
      }
      return super.claim(claimId, types, limit, lease);
    }
  }
}
