package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.scalar;
import static dev.once.outbox.OutboxDatabase.state;
import static dev.once.outbox.OutboxDatabase.transaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A handler that completes its row in the transaction of its own outcome: one commit for both, and
 * neither without the other; the claim's fence holds inside the handler's transaction too; with no
 * retention the completing statement deletes the row.
 */
@Timeout(60)
class JoinedCompletionTest {
  private final DataSource ds = OutboxDatabase.fresh();
  private final Clock clock = Clock.systemUTC();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store);

  @BeforeEach
  void effects() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE effect (row_id bigint PRIMARY KEY)");
    }
  }

  /** Writes the effect, completes the row, then does {@code last} before committing. */
  private MessageHandler joining(Last last) {
    return new MessageHandler() {
      @Override
      public Delivery handle(OutboxRecord row) {
        throw new AssertionError("the relay calls handle(row, completion)");
      }

      @Override
      public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
        try (Connection tx = transaction(ds)) {
          try {
            try (PreparedStatement ps = tx.prepareStatement("INSERT INTO effect VALUES (?)")) {
              ps.setLong(1, row.id());
              ps.executeUpdate();
            }
            completion.completeIn(tx);
            last.run(row);
            tx.commit();
            return Delivery.done();
          } catch (Exception | Error e) {
            tx.rollback();
            throw e;
          }
        }
      }
    };
  }

  @FunctionalInterface
  private interface Last {
    void run(OutboxRecord row) throws Exception;
  }

  @Test
  void theEffectAndTheCompletionCommitTogetherInOneTransaction() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    OutboxRelay relay = OutboxRelay.builder(store).handler("t", joining(row -> {})).build();

    assertThat(relay.runOnce()).isEqualTo(1);

    assertThat(state(ds, id)).isEqualTo("delivered");
    assertThat(scalar(ds, "SELECT count(*) FROM effect")).isEqualTo(1);
    RelayStats stats = relay.stats();
    assertThat(stats.joinedCompletions()).isEqualTo(1);
    assertThat(stats.delivered()).isEqualTo(1);
    assertThat(stats.commits()).as("the claim only: the completion was the handler's").isEqualTo(1);
  }

  @Test
  void aHandlerThatFailsAfterJoiningCommitsNeitherItsWritesNorTheCompletion() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    AtomicInteger calls = new AtomicInteger();
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                joining(
                    row -> {
                      if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("after the completion");
                      }
                    }),
                new RetryPolicy(3, Duration.ofMillis(1), 1.0, Duration.ofMillis(1), 0.0))
            .build();

    relay.runOnce();
    assertThat(state(ds, id)).isEqualTo("pending");
    assertThat(column(ds, id, "last_error")).isEqualTo("java.lang.IllegalStateException");
    assertThat(column(ds, id, "claim_id")).isNull();
    assertThat(scalar(ds, "SELECT count(*) FROM effect")).isZero();

    await().atMost(Duration.ofSeconds(10)).until(() -> relay.runOnce() == 1);
    assertThat(state(ds, id)).isEqualTo("delivered");
    assertThat(scalar(ds, "SELECT count(*) FROM effect")).isEqualTo(1);
  }

  @Test
  void aRelayThatLostItsClaimCannotCompleteTheRowInItsHandlersTransaction() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch stolen = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicInteger lost = new AtomicInteger();
    MessageHandler waiting =
        new MessageHandler() {
          @Override
          public Delivery handle(OutboxRecord row) {
            throw new AssertionError();
          }

          @Override
          public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
            inHandler.countDown();
            assertThat(stolen.await(30, TimeUnit.SECONDS)).isTrue();
            try {
              return joining(r -> {}).handle(row, completion);
            } catch (Throwable e) {
              failure.set(e);
              throw e;
            }
          }
        };
    OutboxRelay first =
        OutboxRelay.builder(store)
            .handler("t", waiting)
            .listener(
                new RelayListener() {
                  @Override
                  public void claimLost(OutboxRecord message) {
                    lost.incrementAndGet();
                  }
                })
            .build();
    Thread worker = new Thread(first::runOnce);
    worker.start();
    assertThat(inHandler.await(30, TimeUnit.SECONDS)).isTrue();
    // The first relay's lease ran out (it was paused); another took the row.
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("UPDATE once.outbox SET lease_until = now() - interval '1 second'");
    }
    UUID thief = UUID.randomUUID();
    assertThat(store.claim(thief, List.of("t"), 1, Duration.ofSeconds(60))).hasSize(1);
    stolen.countDown();
    worker.join(30_000);

    assertThat(failure.get()).isInstanceOf(ClaimLostException.class);
    assertThat(lost).hasValue(1);
    assertThat(scalar(ds, "SELECT count(*) FROM effect")).as("rolled back").isZero();
    assertThat(column(ds, id, "claim_id")).isEqualTo(thief.toString());
    assertThat(state(ds, id)).isEqualTo("pending");
  }

  @Test
  void withoutRetentionTheCompletingStatementDeletesTheRowJoinedOrNot() throws Exception {
    List<OutboxEntry> joined = appendCommitted(ds, outbox, "j", "A", "B");
    List<OutboxEntry> plain = appendCommitted(ds, outbox, "p", "C", "D");
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler("j", joining(row -> {}))
            .handler("p", row -> Delivery.done())
            .deliveredRetention(Duration.ZERO)
            .build();

    assertThat(relay.runOnce()).isEqualTo(4);

    assertThat(scalar(ds, "SELECT count(*) FROM once.outbox")).isZero();
    assertThat(scalar(ds, "SELECT count(*) FROM effect")).isEqualTo(2);
    assertThat(relay.stats().delivered()).isEqualTo(4);
    assertThat(joined).hasSize(2);
    assertThat(plain).hasSize(2);
  }

  @Test
  void withAsyncCompletionsTheHandlersTransactionCommitsWithoutWaitingForTheFlush()
      throws Exception {
    long id = appendCommitted(ds, outbox, "t", "A").get(0).id();
    AtomicReference<String> durability = new AtomicReference<>();
    MessageHandler probe =
        new MessageHandler() {
          @Override
          public Delivery handle(OutboxRecord row) {
            throw new AssertionError();
          }

          @Override
          public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
            try (Connection tx = transaction(ds)) {
              try (Statement s = tx.createStatement()) {
                // as on a server that flushes every commit (the tests' server may not)
                s.execute("SET LOCAL synchronous_commit = on");
              }
              completion.completeIn(tx);
              try (Statement s = tx.createStatement();
                  var rs = s.executeQuery("SELECT current_setting('synchronous_commit')")) {
                rs.next();
                durability.set(rs.getString(1));
              }
              tx.commit();
            }
            return Delivery.done();
          }
        };
    OutboxRelay async =
        OutboxRelay.builder(store).handler("t", probe).asyncCompletions(true).build();
    assertThat(async.runOnce()).isEqualTo(1);
    assertThat(durability.get()).isEqualTo("off");
    assertThat(state(ds, id)).isEqualTo("delivered");

    long second = appendCommitted(ds, outbox, "t", "B").get(0).id();
    OutboxRelay durable = OutboxRelay.builder(store).handler("t", probe).build();
    assertThat(durable.runOnce()).isEqualTo(1);
    assertThat(durability.get()).isEqualTo("on");
    assertThat(state(ds, second)).isEqualTo("delivered");
  }

  @Test
  void aCompletionJoinsOnceOnly() throws Exception {
    appendCommitted(ds, outbox, "t", "A");
    AtomicReference<Throwable> second = new AtomicReference<>();
    OutboxRelay relay =
        OutboxRelay.builder(store)
            .handler(
                "t",
                new MessageHandler() {
                  @Override
                  public Delivery handle(OutboxRecord row) {
                    throw new AssertionError();
                  }

                  @Override
                  public Delivery handle(OutboxRecord row, Completion completion) throws Exception {
                    try (Connection tx = transaction(ds)) {
                      completion.completeIn(tx);
                      second.set(catchThrowable(() -> completion.completeIn(tx)));
                      tx.commit();
                    }
                    return Delivery.done();
                  }
                })
            .build();
    relay.runOnce();
    assertThat(second.get()).isInstanceOf(IllegalStateException.class);
    assertThatCode(() -> Completion.NONE.completeIn(null)).doesNotThrowAnyException();
  }

  private static Throwable catchThrowable(Runnable call) {
    try {
      call.run();
      return null;
    } catch (Throwable e) {
      return e;
    }
  }
}
