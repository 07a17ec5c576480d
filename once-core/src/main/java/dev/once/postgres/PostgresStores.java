package dev.once.postgres;

import dev.once.idempotency.IdempotencyStore;
import dev.once.inbox.InboxStore;
import dev.once.outbox.Outbox;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Factories for the PostgreSQL implementations. The tables they use are created by the scripts
 * listed in {@link OnceSchema}.
 */
public final class PostgresStores {
  private PostgresStores() {}

  /** The idempotency-key store on {@code once.idempotency_key}. Stateless and thread-safe. */
  public static IdempotencyStore idempotencyStore() {
    return new PostgresIdempotencyStore();
  }

  /** The outbox on {@code once.outbox}, stamping rows with {@code clock}. Thread-safe. */
  public static Outbox outbox(Clock clock) {
    return new PostgresOutbox(Objects.requireNonNull(clock, "clock"));
  }

  /**
   * The inbox store on {@code once.inbox}: claims run in the caller's transaction, purges on
   * connections of {@code dataSource}. Thread-safe.
   */
  public static InboxStore inboxStore(DataSource dataSource) {
    return new PostgresInboxStore(Objects.requireNonNull(dataSource, "dataSource"));
  }
}
