package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.idempotency.ClaimResult;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyLimits;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.KeyTakenException;
import dev.once.idempotency.StoredResponse;
import dev.once.json.JsonCanonicalizer;
import dev.once.testing.TestDatabase;
import dev.once.testing.TimeTravel;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The idempotency engine on its PostgreSQL store, against a real database. */
class PostgresIdempotencyEngineTest {
  private final IdempotencyEngine engine =
      IdempotencyEngine.builder(PostgresStores.idempotencyStore())
          .retention(Duration.ofHours(24))
          .build();
  private final String client = "client-" + UUID.randomUUID();

  /**
   * Time passes for this test's keys: they are moved into the past, since expiry is judged by the
   * database's clock, which a test cannot set.
   */
  private void advance(Duration by) {
    TimeTravel.keys(TestDatabase.dataSource(), client, by);
  }

  private static Fingerprint fingerprint(String body) {
    return Fingerprint.of(
        "POST",
        "/v1/payments",
        "application/json",
        body.getBytes(StandardCharsets.UTF_8),
        JsonCanonicalizer.create());
  }

  private IdempotencyEngine engineWithLease(Duration lease) {
    return IdempotencyEngine.builder(PostgresStores.idempotencyStore()).lease(lease).build();
  }

  private IdempotencyScope scope(String key) {
    return new IdempotencyScope(client, new IdempotencyKey(key));
  }

  private static StoredResponse created(String body) {
    return StoredResponse.of(
        201, "application/json", "/v1/payments/p1", body.getBytes(StandardCharsets.UTF_8));
  }

  /** Claims and completes in one committed transaction, as a successful request does. */
  private void completeOnce(IdempotencyScope scope, Fingerprint fp, StoredResponse answer)
      throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult claim = engine.claim(tx, scope, fp);
      assertThat(claim).isInstanceOf(ClaimResult.Acquired.class);
      engine.complete(tx, (ClaimResult.Acquired) claim, answer);
      tx.commit();
    }
  }

  private ClaimResult claimAndRollback(IdempotencyScope scope, Fingerprint fp) throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      try {
        return engine.claim(tx, scope, fp);
      } finally {
        tx.rollback();
      }
    }
  }

  @Test
  void newKeyIsAcquired() throws SQLException {
    assertThat(claimAndRollback(scope("k1"), fingerprint("{}")))
        .isInstanceOf(ClaimResult.Acquired.class);
  }

  @Test
  void completedKeyWithSameFingerprintReplaysTheStoredAnswer() throws SQLException {
    StoredResponse answer = created("{\"id\":\"p1\"}");
    completeOnce(scope("k2"), fingerprint("{\"a\":1}"), answer);

    ClaimResult again = claimAndRollback(scope("k2"), fingerprint("{ \"a\" : 1.0 }"));

    assertThat(again).isEqualTo(new ClaimResult.Replay(answer));
  }

  @Test
  void completedKeyWithDifferentFingerprintIsAMismatch() throws SQLException {
    completeOnce(scope("k3"), fingerprint("{\"a\":1}"), created("{}"));

    assertThat(claimAndRollback(scope("k3"), fingerprint("{\"a\":2}")))
        .isInstanceOf(ClaimResult.Mismatch.class);
  }

  @Test
  void sameKeyOfAnotherClientIsIndependent() throws SQLException {
    completeOnce(scope("shared"), fingerprint("{\"a\":1}"), created("{\"mine\":true}"));
    IdempotencyScope other = new IdempotencyScope("other-" + client, new IdempotencyKey("shared"));

    assertThat(claimAndRollback(other, fingerprint("{\"a\":1}")))
        .isInstanceOf(ClaimResult.Acquired.class);
  }

  @Test
  void rolledBackClaimLeavesNothingAndTheKeyIsFree() throws SQLException {
    assertThat(claimAndRollback(scope("k4"), fingerprint("{}")))
        .isInstanceOf(ClaimResult.Acquired.class);
    assertThat(rowCount("k4")).isZero();
    assertThat(claimAndRollback(scope("k4"), fingerprint("{\"different\":true}")))
        .isInstanceOf(ClaimResult.Acquired.class);
  }

  @Test
  void duplicateWhileFirstIsInFlightIsInUseAtOnceWithoutWaitingOnALock() throws SQLException {
    try (Connection first = TestDatabase.transaction();
        Connection second = TestDatabase.transaction()) {
      assertThat(engine.claim(first, scope("k5"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      // Had the duplicate waited on the first transaction's row lock, this would fail with
      // lock_not_available (55P03) instead of answering.
      try (Statement s = second.createStatement()) {
        s.execute("SET LOCAL lock_timeout = '2s'");
      }
      ClaimResult duplicate = engine.claim(second, scope("k5"), fingerprint("{}"));
      assertThat(duplicate)
          .isEqualTo(new ClaimResult.InUse(scope("k5"), IdempotencyLimits.DEFAULT_RETRY_AFTER));
      second.rollback();
      first.rollback();
    }
  }

  @Test
  void retriesOfACompletedKeyReplayInParallelWithoutLocking() throws SQLException {
    StoredResponse answer = created("{\"id\":\"p9\"}");
    completeOnce(scope("k-par"), fingerprint("{}"), answer);
    try (Connection first = TestDatabase.transaction();
        Connection second = TestDatabase.transaction()) {
      // The first retry's transaction stays open while the second one claims.
      assertThat(engine.claim(first, scope("k-par"), fingerprint("{}")))
          .isEqualTo(new ClaimResult.Replay(answer));
      assertThat(engine.claim(second, scope("k-par"), fingerprint("{}")))
          .isEqualTo(new ClaimResult.Replay(answer));
      assertThat(engine.claim(second, scope("k-par"), fingerprint("{\"x\":1}")))
          .isInstanceOf(ClaimResult.Mismatch.class);
      second.rollback();
      first.rollback();
    }
  }

  @Test
  void expiredKeyBeingReclaimedIsInUseForAConcurrentReclaimer() throws SQLException {
    completeOnce(scope("k-exp"), fingerprint("{}"), created("{}"));
    advance(Duration.ofDays(2));
    try (Connection first = TestDatabase.transaction();
        Connection second = TestDatabase.transaction()) {
      assertThat(engine.claim(first, scope("k-exp"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      try (Statement s = second.createStatement()) {
        s.execute("SET LOCAL lock_timeout = '2s'");
      }
      assertThat(engine.claim(second, scope("k-exp"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.InUse.class);
      second.rollback();
      first.rollback();
    }
  }

  @Test
  void manyConcurrentClaimsOfOneKeyAcquireExactlyOnce() throws Exception {
    int threads = 32;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    StoredResponse answer = created("{\"id\":\"once\"}");
    List<Future<ClaimResult>> results = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  try (Connection tx = TestDatabase.transaction()) {
                    ready.countDown();
                    go.await();
                    ClaimResult claim = engine.claim(tx, scope("k6"), fingerprint("{}"));
                    if (claim instanceof ClaimResult.Acquired acquired) {
                      engine.complete(tx, acquired, answer);
                      tx.commit();
                    } else {
                      tx.rollback();
                    }
                    return claim;
                  }
                }));
      }
      ready.await();
      go.countDown();
      int acquired = 0;
      for (Future<ClaimResult> result : results) {
        ClaimResult claim = result.get();
        if (claim instanceof ClaimResult.Acquired) {
          acquired++;
        } else if (claim instanceof ClaimResult.Replay replay) {
          assertThat(replay.response()).isEqualTo(answer);
        } else {
          assertThat(claim).isInstanceOf(ClaimResult.InUse.class);
        }
      }
      assertThat(acquired).isEqualTo(1);
      assertThat(rowCount("k6")).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aHungRequestLosesItsKeyWhenItsLeaseEnds() throws Exception {
    IdempotencyEngine shortLease = engineWithLease(Duration.ofSeconds(1));
    try (Connection hung = TestDatabase.transaction()) {
      assertThat(shortLease.claim(hung, scope("k-lease"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      // The hung request now sits idle in its transaction.
      assertThat(retryUntilNotInUse("k-lease")).isInstanceOf(ClaimResult.Acquired.class);
      assertThatThrownBy(() -> hung.createStatement().execute("SELECT 1"))
          .isInstanceOf(SQLException.class);
    }
    assertThat(rowCount("k-lease")).isZero();
  }

  /**
   * A handler that keeps the database busy with short statements is never idle and never runs one
   * long statement; only a cap on the whole transaction ends it. A looser transaction_timeout the
   * session already has (its timer armed when the transaction began) must not postpone the lease.
   */
  @ParameterizedTest
  @ValueSource(strings = {"0", "10min"})
  void aTransactionThatKeepsRunningShortStatementsIsEndedWhenItsLeaseEnds(String sessionTimeout)
      throws SQLException {
    IdempotencyEngine shortLease = engineWithLease(Duration.ofSeconds(1));
    String key = "k-busy-" + sessionTimeout;
    try (Connection busy = TestDatabase.transaction()) {
      execute(busy, "SET transaction_timeout = '" + sessionTimeout + "'");
      assertThat(shortLease.claim(busy, scope(key), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);

      Duration endedAfter = runShortStatementsUntilEnded(busy, Duration.ofSeconds(20));

      assertThat(endedAfter).isLessThan(Duration.ofSeconds(10));
    }
    assertThat(rowCount(key)).isZero();
    assertThat(claimAndRollback(scope(key), fingerprint("{}")))
        .isInstanceOf(ClaimResult.Acquired.class);
  }

  @Test
  void aStricterStatementTimeoutAlreadyInForceIsKept() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      execute(tx, "SET statement_timeout = '500ms'");
      engine.claim(tx, scope("k-strict-statement"), fingerprint("{}"));

      Instant start = Instant.now();
      assertThatThrownBy(() -> execute(tx, "SELECT pg_sleep(5)"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(4));
      tx.rollback();
    }
  }

  @Test
  void aStricterIdleTimeoutAlreadyInForceIsKept() throws Exception {
    try (Connection idle = TestDatabase.transaction()) {
      execute(idle, "SET idle_in_transaction_session_timeout = '1s'");
      assertThat(engine.claim(idle, scope("k-strict-idle"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      Instant start = Instant.now();

      assertThat(retryUntilNotInUse("k-strict-idle")).isInstanceOf(ClaimResult.Acquired.class);
      assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(30));
    }
  }

  @Test
  void aStricterTransactionTimeoutAlreadyInForceIsKept() throws SQLException {
    try (Connection busy = TestDatabase.transaction()) {
      execute(busy, "SET transaction_timeout = '1s'");
      engine.claim(busy, scope("k-strict-tx"), fingerprint("{}"));

      Duration endedAfter = runShortStatementsUntilEnded(busy, Duration.ofSeconds(20));

      assertThat(endedAfter).isLessThan(Duration.ofSeconds(10));
    }
  }

  /**
   * Retries the claim of {@code key} (each in its own transaction, rolled back) every 20 ms while
   * it is in use, for at most a minute, and returns the first other result.
   */
  private ClaimResult retryUntilNotInUse(String key) {
    return await("the claim of " + key + " while it is in use")
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> claimAndRollback(scope(key), fingerprint("{}")),
            claim -> !(claim instanceof ClaimResult.InUse));
  }

  /**
   * Runs 50 ms statements in {@code tx} until the database ends the transaction, and says how long
   * that took from the first one; fails if it is still alive after {@code limit}.
   */
  private static Duration runShortStatementsUntilEnded(Connection tx, Duration limit) {
    Instant start = Instant.now();
    Instant deadline = start.plus(limit);
    while (Instant.now().isBefore(deadline)) {
      try {
        execute(tx, "SELECT pg_sleep(0.05)");
      } catch (SQLException ended) {
        return Duration.between(start, Instant.now());
      }
    }
    throw new AssertionError("the transaction was still open after " + limit);
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /**
   * One statement that outlasts the lease is ended: by statement_timeout (57014) on every server,
   * or, on PostgreSQL 17 and later, by transaction_timeout (25P04), whose timer started earlier.
   */
  @Test
  void aStatementOfTheClaimingTransactionRunningLongerThanTheLeaseIsEnded() throws SQLException {
    IdempotencyEngine shortLease = engineWithLease(Duration.ofSeconds(1));
    try (Connection tx = TestDatabase.transaction()) {
      shortLease.claim(tx, scope("k-slow"), fingerprint("{}"));
      assertThatThrownBy(() -> execute(tx, "SELECT pg_sleep(30)"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isIn("57014", "25P04"));
    }
    assertThat(rowCount("k-slow")).isZero();
  }

  /** The lease comes with the lock: a replay or an in-use answer leaves the session's limits. */
  @Test
  void onlyAClaimThatTakesTheKeySetsTheLease() throws SQLException {
    completeOnce(scope("k-lease-replay"), fingerprint("{}"), created("{}"));
    IdempotencyEngine shortLease = engineWithLease(Duration.ofSeconds(7));
    try (Connection tx = TestDatabase.transaction()) {
      assertThat(shortLease.claim(tx, scope("k-lease-replay"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Replay.class);
      assertThat(setting(tx, "statement_timeout")).isEqualTo("0");
      assertThat(shortLease.claim(tx, scope("k-lease-new"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      assertThat(setting(tx, "statement_timeout")).isEqualTo("7s");
      assertThat(setting(tx, "idle_in_transaction_session_timeout")).isEqualTo("7s");
      tx.rollback();
    }
  }

  @Test
  void theReclaimOfAnExpiredKeyHoldsItsLockAndSetsTheLease() throws SQLException {
    completeOnce(scope("k-exp-lease"), fingerprint("{}"), created("{}"));
    advance(Duration.ofDays(2));
    IdempotencyEngine shortLease = engineWithLease(Duration.ofSeconds(7));
    try (Connection tx = TestDatabase.transaction()) {
      assertThat(shortLease.claim(tx, scope("k-exp-lease"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      assertThat(setting(tx, "statement_timeout")).isEqualTo("7s");
      tx.rollback();
    }
  }

  private static String setting(Connection c, String name) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void leaseIsBoundedByWhatPostgresCanEnforce() {
    assertThatThrownBy(
            () ->
                IdempotencyEngine.builder(PostgresStores.idempotencyStore())
                    .lease(Duration.ofDays(25))
                    .build())
        .hasMessageContaining("lease");
  }

  @Test
  void expiredKeyIsANewRequestEvenBeforeThePurge() throws SQLException {
    completeOnce(scope("k7"), fingerprint("{\"a\":1}"), created("{}"));
    advance(Duration.ofHours(24));

    completeOnce(scope("k7"), fingerprint("{\"a\":2}"), created("{\"second\":true}"));

    assertThat(claimAndRollback(scope("k7"), fingerprint("{\"a\":2}")))
        .isEqualTo(new ClaimResult.Replay(created("{\"second\":true}")));
  }

  @Test
  void keyIsKeptUntilItsRetentionEnds() throws SQLException {
    completeOnce(scope("k8"), fingerprint("{}"), created("{}"));
    advance(Duration.ofHours(24).minusMinutes(1));
    assertThat(claimAndRollback(scope("k8"), fingerprint("{}")))
        .isInstanceOf(ClaimResult.Replay.class);
  }

  @Test
  void purgeDeletesOnlyExpiredKeysInBatches() throws SQLException {
    for (int i = 0; i < 5; i++) {
      completeOnce(scope("old-" + i), fingerprint("{}"), created("{}"));
    }
    advance(Duration.ofHours(25));
    completeOnce(scope("fresh"), fingerprint("{}"), created("{}"));
    try (Connection c = TestDatabase.dataSource().getConnection()) {
      int total = 0;
      int batch;
      do {
        batch = engine.purgeExpired(c, 2);
        assertThat(batch).isLessThanOrEqualTo(2);
        total += batch;
      } while (batch == 2);
      assertThat(total).isGreaterThanOrEqualTo(5);
    }
    for (int i = 0; i < 5; i++) {
      assertThat(rowCount("old-" + i)).isZero();
    }
    assertThat(rowCount("fresh")).isEqualTo(1);
  }

  @Test
  void theClaimWritesNothingAndTheKeyIsWrittenOnceWithItsAnswer() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-once"), fingerprint("{}"));
      assertThat(rowsWrittenBy(tx)).as("rows the claim wrote").isZero();
      engine.complete(tx, claim, created("{}"));
      assertThat(rowsWrittenBy(tx)).as("one insert, no update").isEqualTo(1);
      tx.commit();
    }
    assertThat(rowCount("k-once")).isEqualTo(1);
  }

  @Test
  void completeAndCommitStoresTheAnswerAndCommitsTheEffectInOneRoundTrip() throws SQLException {
    String effect = "effect-" + UUID.randomUUID();
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-cac"), fingerprint("{}"));
      insertEffect(tx, effect);
      engine.completeAndCommit(tx, claim, created("{\"id\":\"cac\"}"));
      // Committed: another connection sees both, and the connection's commit has nothing to do.
      assertThat(rowCount("k-cac")).isEqualTo(1);
      assertThat(effectCount(effect)).isEqualTo(1);
      tx.commit();
      // The connection goes on normally, in a new transaction.
      assertThat(engine.claim(tx, scope("k-cac"), fingerprint("{}")))
          .isEqualTo(new ClaimResult.Replay(created("{\"id\":\"cac\"}")));
      tx.rollback();
    }
  }

  @Test
  void completeAndCommitOfATakenKeyCommitsNothing() throws SQLException {
    String effect = "effect-" + UUID.randomUUID();
    StoredResponse first = created("{\"id\":\"first\"}");
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-cac-race"), fingerprint("{}"));
      insertEffect(tx, effect);
      insertCompletedKey("k-cac-race", first, Instant.now().plus(Duration.ofHours(24)));
      assertThatThrownBy(() -> engine.completeAndCommit(tx, claim, created("{}")))
          .isInstanceOf(KeyTakenException.class);
      tx.rollback();
    }
    assertThat(effectCount(effect)).isZero();
    assertThat(claimAndRollback(scope("k-cac-race"), fingerprint("{}")))
        .isEqualTo(new ClaimResult.Replay(first));
  }

  @Test
  void committingAClaimWithoutItsAnswerRecordsNothingAndFreesTheKey() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      assertThat(engine.claim(tx, scope("k-unfinished"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      tx.commit();
    }
    assertThat(rowCount("k-unfinished")).isZero();
    assertThat(claimAndRollback(scope("k-unfinished"), fingerprint("{}")))
        .isInstanceOf(ClaimResult.Acquired.class);
  }

  @Test
  void aKeyCommittedBetweenTheClaimsReadAndItsLockIsNeverOverwritten() throws SQLException {
    StoredResponse first = created("{\"id\":\"first\"}");
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-race"), fingerprint("{}"));
      // Another request's answer, committed after this claim's snapshot: what a request that
      // committed and released the lock just before this claim took it leaves behind.
      insertCompletedKey("k-race", first, Instant.now().plus(Duration.ofHours(24)));
      assertThatThrownBy(() -> engine.complete(tx, claim, created("{\"id\":\"second\"}")))
          .isInstanceOfSatisfying(
              KeyTakenException.class, e -> assertThat(e.scope()).isEqualTo(scope("k-race")));
      tx.rollback();
    }
    assertThat(claimAndRollback(scope("k-race"), fingerprint("{}")))
        .isEqualTo(new ClaimResult.Replay(first));
  }

  @Test
  void completingAfterTheClaimsTransactionEndedFailsWhileAnotherRequestHoldsTheKey()
      throws SQLException {
    try (Connection stale = TestDatabase.transaction();
        Connection current = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(stale, scope("k-stale"), fingerprint("{}"));
      stale.commit(); // the design note's mistake: the claim in a transaction of its own
      assertThat(engine.claim(current, scope("k-stale"), fingerprint("{}")))
          .isInstanceOf(ClaimResult.Acquired.class);
      assertThatThrownBy(() -> engine.complete(stale, claim, created("{}")))
          .isInstanceOf(KeyTakenException.class);
      stale.rollback();
      current.rollback();
    }
    assertThat(rowCount("k-stale")).isZero();
  }

  @Test
  void anExpiredKeyIsReplacedOnceAndAPurgeRacingTheReclaimDeletesNothingNew() throws Exception {
    completeOnce(scope("k-purge"), fingerprint("{\"a\":1}"), created("{\"old\":true}"));
    advance(Duration.ofHours(25));
    try (Connection tx = TestDatabase.transaction();
        Connection purger = TestDatabase.dataSource().getConnection()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-purge"), fingerprint("{\"a\":2}"));
      engine.complete(tx, claim, created("{\"new\":true}"));
      // The replaced row is locked by the reclaiming transaction: the purge skips it.
      purgeEveryExpiredKey(purger);
      tx.commit();
    }
    assertThat(claimAndRollback(scope("k-purge"), fingerprint("{\"a\":2}")))
        .isEqualTo(new ClaimResult.Replay(created("{\"new\":true}")));
  }

  @Test
  void anExpiredKeyPurgedBetweenTheReclaimAndItsAnswerIsWrittenAfresh() throws SQLException {
    completeOnce(scope("k-gone"), fingerprint("{}"), created("{\"old\":true}"));
    advance(Duration.ofHours(25));
    try (Connection tx = TestDatabase.transaction();
        Connection purger = TestDatabase.dataSource().getConnection()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k-gone"), fingerprint("{}"));
      purgeEveryExpiredKey(purger);
      assertThat(rowCount("k-gone")).isZero();
      engine.complete(tx, claim, created("{\"new\":true}"));
      tx.commit();
    }
    assertThat(claimAndRollback(scope("k-gone"), fingerprint("{}")))
        .isEqualTo(new ClaimResult.Replay(created("{\"new\":true}")));
  }

  @Test
  void aKeyCommittedInProgressByAnOlderWriterIsStillRefusedAtCommit() throws SQLException {
    try (Connection tx = TestDatabase.transaction();
        PreparedStatement ps =
            tx.prepareStatement(
                "INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state,"
                    + " created_at) VALUES (?, 'k-old-writer', ?, 'in_progress', now())")) {
      ps.setString(1, client);
      ps.setBytes(2, fingerprint("{}").toBytes());
      ps.executeUpdate();
      assertThatThrownBy(tx::commit)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("OI001"));
    }
    assertThat(rowCount("k-old-writer")).isZero();
  }

  /** Runs the purge until no expired key it may delete is left (other tests' keys included). */
  private void purgeEveryExpiredKey(Connection purger) {
    while (engine.purgeExpired(purger, 100) == 100) {
      // next batch
    }
  }

  /** A business write in {@code tx}: a row of the outbox, which every test database has. */
  private static void insertEffect(Connection tx, String aggregate) throws SQLException {
    try (PreparedStatement ps =
        tx.prepareStatement(
            "INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,"
                + " created_at) VALUES (gen_random_uuid(), 'effect', ?, '{}', now(), now())")) {
      ps.setString(1, aggregate);
      ps.executeUpdate();
    }
  }

  private static long effectCount(String aggregate) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM once.outbox WHERE aggregate_id = ?")) {
      ps.setString(1, aggregate);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Rows this transaction inserted or updated in the key table so far. */
  private static long rowsWrittenBy(Connection tx) throws SQLException {
    try (Statement s = tx.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables"
                    + " WHERE schemaname = 'once' AND relname = 'idempotency_key'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private void insertCompletedKey(String key, StoredResponse answer, Instant expiresAt)
      throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state,"
                    + " status_code, content_type, location, body, created_at, completed_at,"
                    + " expires_at) VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, now(), now(), ?)")) {
      ps.setString(1, client);
      ps.setString(2, key);
      ps.setBytes(3, fingerprint("{}").toBytes());
      ps.setInt(4, answer.status());
      ps.setString(5, answer.contentType());
      ps.setString(6, answer.location());
      ps.setBytes(7, answer.body());
      ps.setObject(8, PostgresIdempotencyStore.utc(expiresAt));
      ps.executeUpdate();
    }
  }

  @Test
  void claimOutsideATransactionIsRefused() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection()) {
      c.setAutoCommit(true);
      assertThatThrownBy(() -> engine.claim(c, scope("k9"), fingerprint("{}")))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void serverErrorsAreNeverStored() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult.Acquired claim =
          (ClaimResult.Acquired) engine.claim(tx, scope("k10"), fingerprint("{}"));
      assertThatThrownBy(
              () -> engine.complete(tx, claim, StoredResponse.of(500, null, null, new byte[0])))
          .isInstanceOf(IllegalArgumentException.class);
      tx.rollback();
    }
  }

  @Test
  void storagePolicyFollowsTheContract() {
    assertThat(engine.isStorable(200)).isTrue();
    assertThat(engine.isStorable(201)).isTrue();
    assertThat(engine.isStorable(404)).isTrue();
    assertThat(engine.isStorable(422)).isTrue();
    assertThat(engine.isStorable(303)).isTrue();
    assertThat(engine.isStorable(301)).isTrue();
    for (int status :
        new int[] {101, 304, 401, 403, 405, 406, 408, 409, 413, 415, 425, 429, 500, 503}) {
      assertThat(engine.isStorable(status)).as("status %d", status).isFalse();
    }
  }

  private long rowCount(String key) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?")) {
      ps.setString(1, client);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
