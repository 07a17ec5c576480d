package dev.once.shop.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.LogCapture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A payment whose outbox insert fails for a reason a retry cures (the statement was cancelled, the
 * session was terminated) answers 503 {@code service-unavailable} with {@code Retry-After}, commits
 * nothing, and its retry with the same key pays once. The outbox reports the failure as Once's
 * {@code OutboxException}, not as a Spring {@code DataAccessException}, so it must be classified by
 * the SQLSTATE in its cause chain.
 */
class TransientOutboxFailureTest extends ShopIntegrationTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @Autowired DataSource dataSource;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void aCancelledOutboxInsertIsA503WithRetryAfterAndNoStackTrace() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "outbox-cancel-" + System.nanoTime();
    ShopResponse failed;
    try (LogCapture logs = LogCapture.start()) {
      failed = payWhileTheOutboxInsertIsStopped(client, account, key, "pg_cancel_backend");
      logs.assertNoErrors();
    }

    failed.assertProblem(503, "service-unavailable");
    assertThat(failed.header("Retry-After")).hasValue("1");
    assertNothingCommitted(account);
    retryPaysOnce(client, account, key);
  }

  @Test
  void aTerminatedSessionDuringTheOutboxInsertIsA503WithRetryAfter() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "100.00");
    String key = "outbox-terminate-" + System.nanoTime();

    ShopResponse failed =
        payWhileTheOutboxInsertIsStopped(client, account, key, "pg_terminate_backend");

    failed.assertProblem(503, "service-unavailable");
    assertThat(failed.header("Retry-After")).hasValue("1");
    assertNothingCommitted(account);
    retryPaysOnce(client, account, key);
  }

  /**
   * Holds a lock on {@code once.outbox} that the payment's insert waits for, then ends that insert
   * with {@code function} ({@code pg_cancel_backend}: SQLSTATE 57014; {@code pg_terminate_backend}:
   * 57P01) while it waits.
   */
  private ShopResponse payWhileTheOutboxInsertIsStopped(
      TestClient client, String account, String key, String function) throws Exception {
    CompletableFuture<ShopResponse> inFlight;
    try (Connection holder = dataSource.getConnection()) {
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE once.outbox IN SHARE MODE");
      }
      inFlight =
          CompletableFuture.supplyAsync(
              () -> http.post("/v1/payments", client.apiKey(), key, payment(account)), THREADS);
      int backend = BlockedBackends.awaitBlockedOn(jdbc, "once.outbox");
      boolean signalled =
          jdbc.sql("SELECT " + function + "(?)").param(backend).query(Boolean.class).single();
      assertThat(signalled).isTrue();
      // The answer comes while the lock is still held: nothing but the signal ended the insert.
      ShopResponse answer = inFlight.get();
      holder.rollback();
      return answer;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private void assertNothingCommitted(String account) {
    assertThat(count("SELECT count(*) FROM payment WHERE account_id = ?", account)).isZero();
    assertThat(count("SELECT count(*) FROM once.outbox WHERE payload->>'accountId' = ?", account))
        .isZero();
  }

  private void retryPaysOnce(TestClient client, String account, String key) {
    ShopResponse retry = http.post("/v1/payments", client.apiKey(), key, payment(account));
    retry.assertStatus(201);
    assertThat(retry.header("Idempotent-Replayed")).isEmpty();
    assertThat(count("SELECT count(*) FROM payment WHERE account_id = ?", account)).isEqualTo(1);
    assertThat(client.balance(account)).isEqualTo("90.0000");
  }

  private long count(String sql, String account) {
    return jdbc.sql(sql).param(account).query(Long.class).single();
  }

  private static String payment(String account) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"10.00\",\"currency\":\"EUR\"}";
  }
}
