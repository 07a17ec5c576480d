package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.column;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.PostgresStores;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A handler's reason may hold what a PostgreSQL {@code text} column refuses (a NUL) or cannot
 * encode (an unpaired surrogate): the relay still records the outcome, once, with those characters
 * replaced, instead of failing the write and running the row again at every lease.
 */
class RelayErrorTextTest {
  private static final RetryPolicy TWO_TRIES =
      new RetryPolicy(2, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(1), 0.0);

  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore store = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(store, Clock.systemUTC());

  private OutboxRelay relay(Delivery outcome) {
    return OutboxRelay.builder(store).handler("t", row -> outcome, TWO_TRIES).build();
  }

  @Test
  void aRetryReasonWithANulAndALoneSurrogateIsRecorded() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();

    assertThat(relay(Delivery.retry("bad\0byte \uD800 here")).runOnce()).isEqualTo(1);

    assertThat(state(ds, id)).isEqualTo("pending");
    assertThat(column(ds, id, "attempts")).isEqualTo("1");
    assertThat(column(ds, id, "last_error")).isEqualTo("bad\uFFFDbyte \uFFFD here");
    assertThat(column(ds, id, "claim_id")).isNull();
  }

  @Test
  void aDeadReasonWithANulIsRecorded() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();

    assertThat(relay(Delivery.dead("refused:\0\uDFFF")).runOnce()).isEqualTo(1);

    assertThat(state(ds, id)).isEqualTo("dead");
    assertThat(column(ds, id, "last_error")).isEqualTo("refused:\uFFFD\uFFFD");
  }

  @Test
  void aLongReasonIsCutBetweenCharactersNeverInsideAPair() throws Exception {
    long id = appendCommitted(ds, outbox, "t", "K").get(0).id();
    // 998 letters, then emoji (two UTF-16 units each): the limit of 1000 falls inside the first.
    String reason = "x".repeat(998) + "\uD83D\uDE00".repeat(10);

    relay(Delivery.retry(reason)).runOnce();

    String stored = column(ds, id, "last_error");
    assertThat(stored).isEqualTo("x".repeat(998) + "…");
  }
}
