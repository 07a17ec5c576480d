package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static dev.once.outbox.OutboxDatabase.transaction;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The relay's batch path: a claim's rows of a batch type reach the handler in one call and are
 * completed in one statement; a poison row is isolated and counted alone; a row whose claim was
 * lost mid-batch is not completed by the late batch, and each effect happens once.
 */
@Timeout(60)
class BatchRelayTest {
  private static final String TYPE = "event.batch";
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);
  private final List<List<Long>> calls = new CopyOnWriteArrayList<>();
  private final Set<Long> lost = ConcurrentHashMap.newKeySet();
  private final RelayListener listener =
      new RelayListener() {
        @Override
        public void claimLost(OutboxRecord message) {
          lost.add(message.id());
        }
      };

  @BeforeEach
  void effects() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE effect (row_id bigint NOT NULL)");
    }
  }

  private OutboxRelay relay(BatchMessageHandler handler, int handlerBatchSize, int maxAttempts) {
    return OutboxRelay.builder(store)
        .handler(
            TYPE,
            handler,
            new RetryPolicy(maxAttempts, Duration.ofMillis(1), 1.0, Duration.ofMillis(1), 0.0))
        .handlerBatchSize(handlerBatchSize)
        .deliveredRetention(Duration.ofMinutes(1))
        .listener(listener)
        .build();
  }

  /** Answers done for each row, recording the rows of each call; the relay completes them. */
  private BatchMessageHandler answeringDone(Runnable beforeAnswer) {
    return new BatchMessageHandler() {
      @Override
      public Delivery handle(OutboxRecord row) {
        calls.add(List.of(row.id()));
        return Delivery.done();
      }

      @Override
      public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) {
        calls.add(rows.stream().map(OutboxRecord::id).toList());
        beforeAnswer.run();
        // List.copyOf: an immutable list that refuses contains(null), as List.of does.
        return List.copyOf(rows.stream().map(row -> Delivery.done()).toList());
      }
    };
  }

  @Test
  void aClaimsRowsOfABatchTypeAreHandledInOneCallAndCompletedInOneStatement() throws Exception {
    List<Long> ids = ids(appendCommitted(ds, outbox, TYPE, aggregates(10)));
    try (OutboxRelay relay = relay(answeringDone(() -> {}), 50, 3)) {
      assertThat(relay.runOnce()).isEqualTo(10);

      assertThat(calls).containsExactly(ids);
      for (long id : ids) {
        assertThat(state(ds, id)).isEqualTo("delivered");
      }
      // One claim and one completion statement for the ten rows.
      assertThat(relay.stats().commits()).isEqualTo(2);
      assertThat(relay.stats().batches()).isEqualTo(1);
      assertThat(relay.stats().rowsPerBatch()).isEqualTo(10.0);
      assertThat(relay.stats().completions()).isEqualTo(1);
      assertThat(relay.stats().rowsPerCompletion()).isEqualTo(10.0);
    }
  }

  @Test
  void batchesAreAtMostHandlerBatchSizeRowsInDueOrder() throws Exception {
    List<Long> ids = ids(appendCommitted(ds, outbox, TYPE, aggregates(10)));
    try (OutboxRelay relay = relay(answeringDone(() -> {}), 4, 3)) {
      relay.runOnce();

      assertThat(calls).containsExactly(ids.subList(0, 4), ids.subList(4, 8), ids.subList(8, 10));
    }
  }

  @Test
  void aPoisonRowFailsAloneIsCountedAloneAndHoldsItsAggregateInOrder() throws Exception {
    List<OutboxEntry> entries = appendCommitted(ds, outbox, TYPE, aggregates(6));
    long poison = entries.get(2).id();
    String poisonAggregate = column(ds, poison, "aggregate_id");
    long behind = appendCommitted(ds, outbox, TYPE, poisonAggregate).get(0).id();
    BatchMessageHandler handler =
        new BatchMessageHandler() {
          @Override
          public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
            return effect(row, completion);
          }

          @Override
          public Delivery handle(OutboxRecord row) {
            throw new AssertionError("the relay passes the completion");
          }

          @Override
          public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion)
              throws Exception {
            calls.add(rows.stream().map(OutboxRecord::id).toList());
            // The whole batch in one transaction: the poison row's failure rolls it all back.
            try (Connection tx = transaction(ds)) {
              for (OutboxRecord row : rows) {
                insertEffect(tx, row);
              }
              completion.of(rows).completeIn(tx);
              tx.rollback();
            }
            throw new IllegalStateException("a poison row in the batch");
          }

          private Delivery effect(OutboxRecord row, Completion completion) throws Exception {
            try (Connection tx = transaction(ds)) {
              insertEffect(tx, row);
              completion.completeIn(tx);
              if (row.id() == poison) {
                tx.rollback();
                throw new IllegalStateException("poison");
              }
              tx.commit();
              return Delivery.done();
            }
          }
        };
    try (OutboxRelay relay = relay(handler, 50, 2)) {
      relay.runOnce(); // the batch fails, then each row alone: five delivered, the poison retried

      for (OutboxEntry entry : entries) {
        assertThat(state(ds, entry.id())).isEqualTo(entry.id() == poison ? "pending" : "delivered");
        assertThat(effects(entry.id())).isEqualTo(entry.id() == poison ? 0 : 1);
      }
      assertThat(column(ds, poison, "attempts")).isEqualTo("1");
      assertThat(state(ds, behind)).isEqualTo("pending");

      awaitDue(poison);
      relay.runOnce(); // its second and last attempt, alone: dead

      assertThat(state(ds, poison)).isEqualTo("dead");
      assertThat(column(ds, poison, "attempts")).isEqualTo("2");
      assertThat(effects(poison)).isZero();
      // The row behind it is held in order, never attempted.
      assertThat(state(ds, behind)).isEqualTo("pending");
      assertThat(column(ds, behind, "attempts")).isEqualTo("0");
      assertThat(effects(behind)).isZero();
    }
  }

  @Test
  void aLateBatchJoinedToItsTransactionCompletesNoneOfTheRowsItNoLongerOwns() throws Exception {
    List<Long> ids = ids(appendCommitted(ds, outbox, TYPE, aggregates(5)));
    long taken = ids.get(3);
    BatchMessageHandler handler =
        new BatchMessageHandler() {
          @Override
          public Delivery handle(OutboxRecord row) {
            throw new AssertionError("the relay passes the completion");
          }

          @Override
          public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
            try (Connection tx = transaction(ds)) {
              insertEffect(tx, row);
              try {
                completion.completeIn(tx);
              } catch (ClaimLostException e) {
                tx.rollback();
                return Delivery.retry("claim lost");
              }
              tx.commit();
              return Delivery.done();
            }
          }

          @Override
          public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion)
              throws Exception {
            calls.add(rows.stream().map(OutboxRecord::id).toList());
            takeOver(taken); // the relay paused past its lease; another relay claimed the row
            try (Connection tx = transaction(ds)) {
              for (OutboxRecord row : rows) {
                insertEffect(tx, row);
              }
              try {
                completion.of(rows).completeIn(tx);
                tx.commit();
                return rows.stream().map(row -> Delivery.done()).toList();
              } catch (ClaimLostException e) {
                assertThat(e.getMessage()).contains(Long.toString(taken));
                tx.rollback();
              }
            }
            List<Delivery> outcomes = new ArrayList<>();
            for (OutboxRecord row : rows) {
              outcomes.add(handle(row, completion.of(row)));
            }
            return outcomes;
          }
        };
    try (OutboxRelay relay = relay(handler, 50, 3)) {
      relay.runOnce();
    }

    for (long id : ids) {
      if (id == taken) {
        assertThat(state(ds, id)).isEqualTo("pending");
        assertThat(column(ds, id, "claim_id")).isEqualTo(NEW_HOLDER.toString());
        assertThat(effects(id)).isZero();
      } else {
        assertThat(state(ds, id)).isEqualTo("delivered");
        assertThat(effects(id)).isEqualTo(1);
      }
    }
    assertThat(lost).containsExactly(taken);
  }

  @Test
  void aLateBatchCompletedByTheRelayCompletesNoneOfTheRowsItNoLongerOwns() throws Exception {
    List<Long> ids = ids(appendCommitted(ds, outbox, TYPE, aggregates(5)));
    long taken = ids.get(1);
    try (OutboxRelay relay = relay(answeringDone(() -> takeOver(taken)), 50, 3)) {
      relay.runOnce();
    }

    for (long id : ids) {
      assertThat(state(ds, id)).isEqualTo(id == taken ? "pending" : "delivered");
    }
    assertThat(column(ds, taken, "claim_id")).isEqualTo(NEW_HOLDER.toString());
    assertThat(lost).containsExactly(taken);
  }

  @Test
  void aBatchPastItsTimeOutIsInterruptedItsRowsReleasedAndItsWorkerFree() throws Exception {
    List<Long> ids = ids(appendCommitted(ds, outbox, TYPE, aggregates(4)));
    java.util.concurrent.atomic.AtomicInteger interrupted =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    BatchMessageHandler handler =
        new BatchMessageHandler() {
          @Override
          public Delivery handle(OutboxRecord row) {
            return Delivery.done();
          }

          @Override
          public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) {
            calls.add(rows.stream().map(OutboxRecord::id).toList());
            if (calls.size() == 1) {
              try {
                never.await(); // hangs until the relay's time-out interrupts it
              } catch (InterruptedException e) {
                interrupted.incrementAndGet();
              }
            }
            return List.copyOf(rows.stream().map(row -> Delivery.done()).toList());
          }
        };
    // One worker: if the hung batch kept its permit, no later batch could run.
    try (OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                TYPE,
                handler,
                new RetryPolicy(3, Duration.ofMillis(1), 1.0, Duration.ofMillis(1), 0.0))
            .workers(1)
            .handlerTimeout(TYPE, Duration.ofMillis(200))
            .pollInterval(Duration.ofMillis(20))
            .deliveredRetention(Duration.ofMinutes(1))
            .build()) {
      relay.start();
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> ids.stream().allMatch(id -> "delivered".equals(stateQuietly(id))));
    }

    assertThat(interrupted).hasValue(1);
    assertThat(calls.get(0)).isEqualTo(ids);
    for (long id : ids) {
      // The timed-out attempt is counted, and the row was released for a second one.
      assertThat(column(ds, id, "attempts")).isEqualTo("2");
    }
  }

  private String stateQuietly(long id) {
    try {
      return state(ds, id);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final UUID NEW_HOLDER = UUID.fromString("00000000-0000-4000-8000-000000000001");

  /**
   * What a second relay does once this one's lease on the row ran out: its claim takes the row. The
   * lease is ended by hand (no waiting); the claim is the store's own.
   */
  private void takeOver(long id) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE once.outbox SET lease_until = now() - interval '1 second' WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    List<OutboxRecord> claimed = store.claim(NEW_HOLDER, List.of(TYPE), 100, Duration.ofHours(1));
    assertThat(claimed).extracting(OutboxRecord::id).containsExactly(id);
  }

  private void awaitDue(long id) throws SQLException {
    // The retry's delay is 1 ms by the database's clock; make it due now instead of waiting.
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE once.outbox SET next_attempt_at = now() - interval '1 second'"
                    + " WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
  }

  private static void insertEffect(Connection tx, OutboxRecord row) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement("INSERT INTO effect VALUES (?)")) {
      ps.setLong(1, row.id());
      ps.executeUpdate();
    }
  }

  private long effects(long id) throws SQLException {
    return scalar(ds, "SELECT count(*) FROM effect WHERE row_id = " + id);
  }

  private static String[] aggregates(int n) {
    String[] aggregates = new String[n];
    for (int i = 0; i < n; i++) {
      aggregates[i] = "agg-" + UUID.randomUUID();
    }
    return aggregates;
  }

  private static List<Long> ids(List<OutboxEntry> entries) {
    return entries.stream().map(OutboxEntry::id).toList();
  }
}
