package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The key purge keeps pace with the writes (issue 22, item 2): one run deletes every expired key,
 * however many (the inbox purge's: {@code InboxPurgerTest}), where a run used to stop after a
 * hundred batches (so at most a hundred times the batch size per interval: about 830 keys/s and 330
 * records/s with the defaults, less than the shop writes).
 */
class PurgeKeepsPaceTest {
  /** More than the old cap of one run: 100 batches of {@link #BATCH}. */
  private static final int ROWS = 1_000;

  private static final int BATCH = 3;

  private final DriverManagerDataSource ds =
      new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
  private final JdbcTemplate jdbc = new JdbcTemplate(ds);

  PurgeKeepsPaceTest() {
    new OnceSchemaMigration(ds);
  }

  @Test
  void oneKeyPurgeRunDeletesMoreExpiredKeysThanAHundredBatches() throws Exception {
    String client = "pace-" + UUID.randomUUID();
    jdbc.update(
        """
        INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                          body, created_at, completed_at, expires_at)
        SELECT ?, 'k' || g, decode(repeat('00', 32), 'hex'), 'completed', 201, '\\x'::bytea,
               now() - interval '2 hours', now() - interval '2 hours', now() - interval '1 hour'
          FROM generate_series(1, ?) g
        """,
        client,
        ROWS);
    jdbc.update(
        """
        INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                          body, created_at, completed_at, expires_at)
        VALUES (?, 'fresh', decode(repeat('00', 32), 'hex'), 'completed', 201, '\\x'::bytea,
                now(), now(), now() + interval '1 hour')
        """,
        client);
    IdempotencyEngine engine = IdempotencyEngine.builder(PostgresStores.idempotencyStore()).build();

    int deleted = new IdempotencyKeyPurger(engine, ds, Duration.ofMinutes(1), BATCH).purgeNow();

    assertThat(deleted).isGreaterThanOrEqualTo(ROWS);
    assertThat(
            jdbc.queryForObject(
                "SELECT count(*) FROM once.idempotency_key WHERE client_id = ?",
                Long.class,
                client))
        .as("only the fresh key is left")
        .isEqualTo(1);
  }
}
