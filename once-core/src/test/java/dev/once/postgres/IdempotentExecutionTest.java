package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.failures.TransientFailures;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.HandlerAnswer;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.IdempotentHandler;
import dev.once.idempotency.IdempotentOutcome;
import dev.once.idempotency.IdempotentRequest;
import dev.once.idempotency.IdempotentTransactions;
import dev.once.idempotency.StoredResponse;
import dev.once.json.JsonCanonicalizer;
import dev.once.testing.ConnectionSource;
import dev.once.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link IdempotencyEngine#execute}, the whole request loop, on plain JDBC transactions against a
 * real database. A handler's effect is a row of {@code public.test_loop_effect}, written in the
 * key's transaction: a committed effect is a row, a rolled-back one none.
 */
@Timeout(60)
class IdempotentExecutionTest {
  private static final DataSource DB = TestDatabase.dataSource();

  private final IdempotencyEngine engine =
      IdempotencyEngine.builder(PostgresStores.idempotencyStore()).build();
  private final String client = "client-" + UUID.randomUUID();
  private final AtomicInteger runs = new AtomicInteger();

  static {
    try (Connection c = DB.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS public.test_loop_effect (client_id text, idem_key text)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private IdempotencyScope scope(String key) {
    return new IdempotencyScope(client, new IdempotencyKey(key));
  }

  private static Fingerprint fingerprint(String body) {
    return Fingerprint.of(
        "POST",
        "/v1/payments",
        "application/json",
        body.getBytes(StandardCharsets.UTF_8),
        JsonCanonicalizer.create());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A handler that writes one effect for {@code key}, then answers {@code answer}. */
  private IdempotentHandler<SQLException> writesThenAnswers(String key, HandlerAnswer answer) {
    return connection -> {
      runs.incrementAndGet();
      try (PreparedStatement ps =
          connection.prepareStatement(
              "INSERT INTO public.test_loop_effect (client_id, idem_key) VALUES (?, ?)")) {
        ps.setString(1, client);
        ps.setString(2, key);
        ps.executeUpdate();
      }
      return answer;
    };
  }

  private int effects(String key) throws SQLException {
    try (Connection c = DB.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM public.test_loop_effect WHERE client_id = ? AND idem_key"
                    + " = ?")) {
      ps.setString(1, client);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private IdempotentOutcome execute(String key, String body, IdempotentHandler<SQLException> h)
      throws SQLException {
    return engine.execute(DB, scope(key), fingerprint(body), h);
  }

  private static final HandlerAnswer CREATED =
      HandlerAnswer.of(201, "application/json", "/v1/payments/p1", bytes("{\"id\":\"p1\"}"));

  private static final StoredResponse CREATED_STORED =
      StoredResponse.of(201, "application/json", "/v1/payments/p1", bytes("{\"id\":\"p1\"}"));

  @Test
  void aSuccessIsExecutedOnceAndReplayedAfterwards() throws SQLException {
    IdempotentOutcome first = execute("k", "{\"a\":1}", writesThenAnswers("k", CREATED));
    IdempotentOutcome second = execute("k", "{ \"a\" : 1.0 }", writesThenAnswers("k", CREATED));

    assertThat(first).isEqualTo(new IdempotentOutcome.Executed(CREATED_STORED));
    assertThat(second).isEqualTo(new IdempotentOutcome.Replayed(CREATED_STORED, false));
    assertThat(runs).hasValue(1);
    assertThat(effects("k")).isEqualTo(1);
  }

  @Test
  void aRefusalIsStoredWithoutTheHandlersWrites() throws SQLException {
    HandlerAnswer refusal =
        HandlerAnswer.of(422, "application/problem+json", null, bytes("{\"type\":\"no\"}"));
    StoredResponse stored =
        StoredResponse.of(422, "application/problem+json", null, refusal.body());

    IdempotentOutcome first = execute("r", "{}", writesThenAnswers("r", refusal));
    IdempotentOutcome retry = execute("r", "{}", writesThenAnswers("r", CREATED));

    assertThat(first).isEqualTo(new IdempotentOutcome.Refused(stored));
    assertThat(retry).isEqualTo(new IdempotentOutcome.Replayed(stored, false));
    assertThat(runs).hasValue(1);
    assertThat(effects("r")).isZero();
  }

  @Test
  void anAnswerThatIsNotStoredRollsBackAndLeavesTheKeyFree() throws SQLException {
    HandlerAnswer failure = HandlerAnswer.of(500, "text/plain", null, bytes("boom"));
    HandlerAnswer notTheHandlers =
        HandlerAnswer.of(404, "text/plain", null, bytes("no such path")).notStorable();

    IdempotentOutcome fiveHundred = execute("u", "{}", writesThenAnswers("u", failure));
    IdempotentOutcome flagged = execute("u", "{}", writesThenAnswers("u", notTheHandlers));
    assertThat(effects("u")).isZero();
    IdempotentOutcome retry = execute("u", "{}", writesThenAnswers("u", CREATED));

    assertThat(fiveHundred).isEqualTo(new IdempotentOutcome.NotStored(failure));
    assertThat(flagged).isEqualTo(new IdempotentOutcome.NotStored(notTheHandlers));
    assertThat(retry).isInstanceOf(IdempotentOutcome.Executed.class);
    assertThat(runs).hasValue(3);
    assertThat(effects("u")).isEqualTo(1);
  }

  @Test
  void aHandlersExceptionRollsBackAndIsRethrown() throws SQLException {
    SQLException thrown = new SQLException("the handler's own failure", "23505");
    IdempotentHandler<SQLException> failing =
        connection -> {
          writesThenAnswers("x", CREATED).handle(connection);
          throw thrown;
        };

    assertThatThrownBy(() -> execute("x", "{}", failing)).isSameAs(thrown);

    assertThat(effects("x")).isZero();
    assertThat(execute("x", "{}", writesThenAnswers("x", CREATED)))
        .isInstanceOf(IdempotentOutcome.Executed.class);
    assertThat(effects("x")).isEqualTo(1);
  }

  @Test
  void aConcurrentDuplicateIsInUseWithoutRunningItsHandler() throws Exception {
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      IdempotentHandler<Exception> held =
          connection -> {
            inHandler.countDown();
            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            return writesThenAnswers("c", CREATED).handle(connection);
          };
      Future<IdempotentOutcome> first =
          pool.submit(() -> engine.execute(DB, scope("c"), fingerprint("{}"), held));
      assertThat(inHandler.await(30, TimeUnit.SECONDS)).isTrue();

      IdempotentOutcome duplicate = execute("c", "{}", writesThenAnswers("c", CREATED));
      release.countDown();

      assertThat(duplicate)
          .isEqualTo(new IdempotentOutcome.InUse(engine.retryAfter(), false))
          .extracting(IdempotentOutcome::ranHandler)
          .isEqualTo(false);
      assertThat(first.get(30, TimeUnit.SECONDS))
          .isEqualTo(new IdempotentOutcome.Executed(CREATED_STORED));
      assertThat(runs).hasValue(1);
      assertThat(effects("c")).isEqualTo(1);
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void theKeyWithAnotherRequestIsReusedAndNothingRuns() throws SQLException {
    execute("m", "{\"a\":1}", writesThenAnswers("m", CREATED));

    IdempotentOutcome other = execute("m", "{\"a\":2}", writesThenAnswers("m", CREATED));

    assertThat(other).isEqualTo(new IdempotentOutcome.KeyReused(false));
    assertThat(runs).hasValue(1);
    assertThat(effects("m")).isEqualTo(1);
  }

  @Test
  void aSuccessLargerThanTheLargestAnswerIsRolledBackAndALargerRefusalPassesUnstored()
      throws SQLException {
    IdempotentRequest small = IdempotentRequest.of(scope("t"), fingerprint("{}"));
    HandlerAnswer large = HandlerAnswer.of(201, "text/plain", null, bytes("0123456789"));
    HandlerAnswer largeRefusal = HandlerAnswer.of(422, "text/plain", null, bytes("0123456789"));

    IdempotentOutcome success =
        engine.execute(DB, small.withMaxAnswerBytes(9), writesThenAnswers("t", large));
    IdempotentOutcome refusal =
        engine.execute(DB, small.withMaxAnswerBytes(9), writesThenAnswers("t", largeRefusal));
    assertThat(effects("t")).isZero();
    IdempotentOutcome fits =
        engine.execute(DB, small.withMaxAnswerBytes(10), writesThenAnswers("t", large));

    assertThat(success).isEqualTo(new IdempotentOutcome.TooLarge(10, 9));
    assertThat(refusal).isEqualTo(new IdempotentOutcome.NotStored(largeRefusal));
    assertThat(fits).isInstanceOf(IdempotentOutcome.Executed.class);
    assertThat(effects("t")).isEqualTo(1);
  }

  @Test
  void aDatabaseThatCannotBeReachedIsUnavailableAndRunsNothing() throws SQLException {
    SQLException refused = new SQLException("Connection refused", "08001");

    IdempotentOutcome outcome =
        engine.execute(
            (ConnectionSource)
                () -> {
                  throw refused;
                },
            scope("d"),
            fingerprint("{}"),
            writesThenAnswers("d", CREATED));

    assertThat(outcome).isInstanceOf(IdempotentOutcome.Unavailable.class);
    IdempotentOutcome.Unavailable unavailable = (IdempotentOutcome.Unavailable) outcome;
    assertThat(unavailable.ranHandler()).isFalse();
    assertThat(unavailable.cause()).hasRootCause(refused);
    assertThat(TransientFailures.isTransient(unavailable.cause())).isTrue();
    assertThat(runs).hasValue(0);
  }

  @Test
  void aKeyAnsweredMeanwhileRollsTheExecutionBackAndAnswersWhatTheKeyHolds() throws SQLException {
    StoredResponse theOthers = StoredResponse.of(200, "text/plain", null, bytes("first"));
    IdempotentOutcome outcome =
        execute(
            "taken",
            "{}",
            connection -> {
              // Another request's answer for the key commits where this claim cannot see it.
              insertCompleted("taken", fingerprint("{}"), theOthers);
              return writesThenAnswers("taken", CREATED).handle(connection);
            });

    assertThat(outcome).isEqualTo(new IdempotentOutcome.Replayed(theOthers, true));
    assertThat(effects("taken")).isZero();
  }

  @Test
  void aRefusalWhoseKeyWasTakenMeanwhileAnswersWhatTheKeyHolds() throws SQLException {
    StoredResponse theOthers = StoredResponse.of(201, "text/plain", null, bytes("the other"));
    HandlerAnswer refusal = HandlerAnswer.of(422, "text/plain", null, bytes("refused"));
    IdempotentOutcome outcome =
        execute(
            "taken-refusal",
            "{}",
            connection -> {
              // Another request's answer commits for the key before the refusal is stored.
              insertCompleted("taken-refusal", fingerprint("{}"), theOthers);
              return writesThenAnswers("taken-refusal", refusal).handle(connection);
            });

    assertThat(outcome).isEqualTo(new IdempotentOutcome.Replayed(theOthers, true));
    assertThat(effects("taken-refusal")).isZero();
  }

  @Test
  void aRollbackOnlyTransactionIsRolledBack() throws SQLException {
    IdempotentTransactions jdbc = IdempotentTransactions.jdbc(DB);
    IdempotentTransactions rollbackOnly =
        () -> {
          IdempotentTransactions.Transaction tx = jdbc.begin();
          return new IdempotentTransactions.Transaction() {
            @Override
            public Connection connection() {
              return tx.connection();
            }

            @Override
            public boolean isRollbackOnly() {
              return true;
            }

            @Override
            public void commit(IdempotentTransactions.AnswerWrite answer) {
              tx.commit(answer);
            }

            @Override
            public void rollback() {
              tx.rollback();
            }
          };
        };

    IdempotentOutcome outcome =
        engine.execute(
            rollbackOnly,
            IdempotentRequest.of(scope("ro"), fingerprint("{}")),
            writesThenAnswers("ro", CREATED));

    assertThat(outcome).isEqualTo(new IdempotentOutcome.RollbackOnly());
    assertThat(effects("ro")).isZero();
    assertThat(execute("ro", "{}", writesThenAnswers("ro", CREATED)))
        .isInstanceOf(IdempotentOutcome.Executed.class);
  }

  @Test
  void aRequestsOwnRetentionIsStoredWithItsKey() throws SQLException {
    IdempotentRequest request = IdempotentRequest.of(scope("ret"), fingerprint("{}"));
    HandlerAnswer refusal = HandlerAnswer.of(400, "text/plain", null, bytes("bad"));

    engine.execute(
        DB, request.withRetention(Duration.ofSeconds(2)), writesThenAnswers("ret", CREATED));
    engine.execute(
        DB,
        IdempotentRequest.of(scope("ret-refused"), fingerprint("{}"))
            .withRetention(Duration.ofMinutes(90)),
        writesThenAnswers("ret-refused", refusal));
    engine.execute(
        DB,
        IdempotentRequest.of(scope("ret-default"), fingerprint("{}")),
        writesThenAnswers("ret-default", CREATED));

    assertThat(storedRetention("ret")).isEqualTo(Duration.ofSeconds(2));
    assertThat(storedRetention("ret-refused")).isEqualTo(Duration.ofMinutes(90));
    assertThat(storedRetention("ret-default")).isEqualTo(engine.retention());
  }

  @Test
  void aRetentionUnderOneSecondIsRefusedByTheOneRule() {
    IdempotentRequest request = IdempotentRequest.of(scope("short"), fingerprint("{}"));

    assertThatThrownBy(() -> request.withRetention(Duration.ofMillis(999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retention must be at least 1 second, was PT0.999S");
    assertThatThrownBy(
            () ->
                IdempotencyEngine.builder(PostgresStores.idempotencyStore())
                    .retention(Duration.ofMillis(999))
                    .build())
        .hasMessage("retention must be at least 1 second, was PT0.999S");
  }

  /** {@code expires_at - completed_at} of the key's row, to the microsecond. */
  private Duration storedRetention(String key) throws SQLException {
    try (Connection c = DB.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT (extract(epoch FROM expires_at - completed_at) * 1000000)::bigint"
                    + " FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?")) {
      ps.setString(1, client);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("key %s stored", key).isTrue();
        return Duration.ofNanos(rs.getLong(1) * 1000);
      }
    }
  }

  /** Commits a completed key, as another request's completion would, in its own transaction. */
  private void insertCompleted(String key, Fingerprint fp, StoredResponse answer)
      throws SQLException {
    try (Connection c = DB.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                """
                INSERT INTO once.idempotency_key
                       (client_id, idem_key, fingerprint, state, status_code, content_type,
                        location, body, created_at, completed_at, expires_at)
                VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, now(), now(), now() + interval '1 hour')
                """)) {
      ps.setString(1, client);
      ps.setString(2, key);
      ps.setBytes(3, fp.toBytes());
      ps.setInt(4, answer.status());
      ps.setString(5, answer.contentType());
      ps.setString(6, answer.location());
      ps.setBytes(7, answer.body());
      ps.executeUpdate();
    }
  }
}
