package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.ClaimResult;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.StoredResponse;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.inbox.Transactions;
import dev.once.json.JsonCanonicalizer;
import dev.once.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Instances whose clocks disagree, on one database (issue 22, item 3): a key's expiry, the purge's
 * cut-off and the inbox's retention are the database's clock. An instance whose clock runs hours
 * ahead purges no key inside its retention, and retries of that key replay instead of executing
 * again; an instance whose clock runs behind writes no key that has already expired for the others.
 */
@SuppressWarnings("removal") // builder().clock(..) and Inbox.of(.., clock): what both versions have
class SkewedClockKeysTest {
  private static final Duration RETENTION = Duration.ofHours(24);
  private final String client = "skew-" + UUID.randomUUID();
  private final IdempotencyScope scope = new IdempotencyScope(client, new IdempotencyKey("pay-1"));
  private final Fingerprint fingerprint =
      Fingerprint.of(
          "POST",
          "/v1/payments",
          "application/json",
          "{\"amount\":\"1.00\"}".getBytes(StandardCharsets.UTF_8),
          JsonCanonicalizer.create());
  private final StoredResponse answer =
      StoredResponse.of(201, "application/json", null, "{\"id\":\"p1\"}".getBytes());

  private static IdempotencyEngine engine(Clock clock) {
    return IdempotencyEngine.builder(PostgresStores.idempotencyStore())
        .clock(clock)
        .retention(RETENTION)
        .build();
  }

  private static Clock offset(Duration by) {
    return Clock.offset(Clock.systemUTC(), by);
  }

  private void complete(IdempotencyEngine engine) throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult claim = engine.claim(tx, scope, fingerprint);
      assertThat(claim).isInstanceOf(ClaimResult.Acquired.class);
      engine.complete(tx, (ClaimResult.Acquired) claim, answer);
      tx.commit();
    }
  }

  private ClaimResult claimAndRollback(IdempotencyEngine engine) throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      ClaimResult claim = engine.claim(tx, scope, fingerprint);
      tx.rollback();
      return claim;
    }
  }

  private long keys() throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM once.idempotency_key WHERE client_id = ?")) {
      ps.setString(1, client);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  void anInstanceHoursAheadPurgesNoKeyInsideItsRetentionAndItsRetriesReplay() throws Exception {
    complete(engine(Clock.systemUTC()));
    IdempotencyEngine ahead = engine(offset(RETENTION.plusHours(1)));

    try (Connection c = TestDatabase.dataSource().getConnection()) {
      c.setAutoCommit(true);
      while (ahead.purgeExpired(c, 1000) == 1000) {
        // every key expired by the database's clock, if any
      }
    }

    assertThat(keys()).as("the key is inside its retention by the database's clock").isOne();
    assertThat(claimAndRollback(ahead))
        .as("a retry through the instance that runs ahead replays")
        .isEqualTo(new ClaimResult.Replay(answer));
  }

  @Test
  void aKeyStoredByAnInstanceHoursBehindIsLiveForTheOthers() throws Exception {
    complete(engine(offset(RETENTION.plusHours(1).negated())));

    assertThat(claimAndRollback(engine(Clock.systemUTC())))
        .as("expires a retention after the database's clock, not the writer's")
        .isEqualTo(new ClaimResult.Replay(answer));
  }

  @Test
  void anInboxWhoseClockRunsDaysAheadPurgesNoRecordInsideItsRetention() throws Exception {
    Transactions transactions = Transactions.of(TestDatabase.dataSource());
    Inbox onTime =
        Inbox.of(
            PostgresStores.inboxStore(TestDatabase.dataSource()), transactions, Clock.systemUTC());
    Inbox ahead =
        Inbox.of(
            PostgresStores.inboxStore(TestDatabase.dataSource()),
            transactions,
            offset(Duration.ofDays(8)));
    AtomicInteger applied = new AtomicInteger();
    InboxConsumer consumer =
        new InboxConsumer() {
          @Override
          public String name() {
            return "skew-consumer";
          }

          @Override
          public Set<String> types() {
            return Set.of("order.placed");
          }

          @Override
          public void consume(Connection tx, InboxMessage message) {
            applied.incrementAndGet();
          }
        };
    InboxMessage message = new InboxMessage(UUID.randomUUID(), "order.placed", "ord_1", "{}");
    assertThat(onTime.deliver(consumer, message)).isTrue();

    while (ahead.purge(Duration.ofDays(7), 1000) == 1000) {
      // every record older than a week by the database's clock, if any
    }

    assertThat(ahead.deliver(consumer, message)).as("still recorded: a duplicate").isFalse();
    assertThat(applied).hasValue(1);
  }
}
