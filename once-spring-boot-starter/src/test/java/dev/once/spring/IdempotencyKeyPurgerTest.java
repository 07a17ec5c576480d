package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.ClaimResult;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.StoredResponse;
import dev.once.json.JsonCanonicalizer;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TestDatabase;
import dev.once.testing.TimeTravel;
import java.sql.Connection;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The purge removes every expired key over several batches and keeps the fresh ones. */
class IdempotencyKeyPurgerTest {

  @Test
  void purgeNowDeletesAllExpiredKeysInBatches() throws Exception {
    DriverManagerDataSource ds =
        new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
    new OnceSchemaMigration(ds);
    IdempotencyEngine past =
        IdempotencyEngine.builder(PostgresStores.idempotencyStore())
            .retention(Duration.ofHours(1))
            .build();
    String client = "purge-" + UUID.randomUUID();
    Fingerprint fp = Fingerprint.of("POST", "/p", null, new byte[0], JsonCanonicalizer.create());
    for (int i = 0; i < 7; i++) {
      try (Connection tx = ds.getConnection()) {
        tx.setAutoCommit(false);
        IdempotencyScope scope = new IdempotencyScope(client, new IdempotencyKey("k" + i));
        ClaimResult.Acquired claim = (ClaimResult.Acquired) past.claim(tx, scope, fp);
        past.complete(tx, claim, StoredResponse.of(201, null, null, new byte[0]));
        tx.commit();
      }
    }
    // Expiry is the database's clock: the keys are moved past their retention.
    TimeTravel.keys(ds, client, Duration.ofHours(2));
    IdempotencyEngine now = IdempotencyEngine.builder(PostgresStores.idempotencyStore()).build();

    int deleted = new IdempotencyKeyPurger(now, ds, Duration.ofMinutes(1), 3).purgeNow();

    assertThat(deleted).isGreaterThanOrEqualTo(7);
    try (Connection c = ds.getConnection();
        var ps =
            c.prepareStatement("SELECT count(*) FROM once.idempotency_key WHERE client_id = ?")) {
      ps.setString(1, client);
      try (var rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
    }
  }
}
