package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.HandlerAnswer;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.IdempotentOutcome;
import dev.once.idempotency.IdempotentRequest;
import dev.once.json.JsonCanonicalizer;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The claim bounds the network timeout of the request's connection (the lease plus the grace); in
 * the request loop run by Spring's transaction manager, the connection goes back with the timeout
 * it had, after a commit and after a rollback alike. One real connection, kept open across requests
 * ({@link SingleConnectionDataSource}), so that the test reads what the pool's next borrower would
 * find.
 */
@Timeout(60)
class SpringNetworkTimeoutTest {
  private final IdempotencyEngine engine =
      IdempotencyEngine.builder(PostgresStores.idempotencyStore())
          .lease(Duration.ofSeconds(2))
          .build();
  private final String client = "net-" + UUID.randomUUID();

  @Test
  void theConnectionGoesBackWithTheNetworkTimeoutItHadAfterACommitAndARollback() throws Exception {
    try (Connection physical = TestDatabase.dataSource().getConnection()) {
      SingleConnectionDataSource dataSource = new SingleConnectionDataSource(physical, true);
      SpringIdempotentTransactions transactions =
          new SpringIdempotentTransactions(
              new DataSourceTransactionManager(dataSource), dataSource);
      assertThat(physical.getNetworkTimeout()).isZero();
      int[] during = new int[1];

      IdempotentOutcome committed =
          engine.execute(
              transactions,
              request("k1"),
              tx -> {
                during[0] = tx.getNetworkTimeout();
                return HandlerAnswer.of(201, "application/json", null, new byte[0]);
              });
      assertThat(committed).isInstanceOf(IdempotentOutcome.Executed.class);
      assertThat(during[0]).isEqualTo(7_000); // the lease, 2 s, and the grace, 5 s
      assertThat(physical.getNetworkTimeout()).isZero();

      assertThatThrownBy(
              () ->
                  engine.execute(
                      transactions,
                      request("k2"),
                      tx -> {
                        during[0] = tx.getNetworkTimeout();
                        throw new IllegalStateException("the handler failed");
                      }))
          .hasMessage("the handler failed");
      assertThat(during[0]).isEqualTo(7_000);
      assertThat(physical.getNetworkTimeout()).isZero();
    }
  }

  private IdempotentRequest request(String key) {
    return IdempotentRequest.of(
        new IdempotencyScope(client, new IdempotencyKey(key)),
        Fingerprint.of(
            "POST",
            "/v1/payments",
            "application/json",
            "{}".getBytes(StandardCharsets.UTF_8),
            JsonCanonicalizer.create()));
  }
}
