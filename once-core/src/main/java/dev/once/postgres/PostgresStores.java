package dev.once.postgres;

import dev.once.idempotency.IdempotencyStore;
import dev.once.inbox.InboxStore;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxStore;
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

  /**
   * The outbox store on {@code once.outbox}: appends run in the caller's transaction, everything
   * else in short transactions on {@code dataSource}. Thread-safe. Use it for {@link
   * Outbox#of(OutboxStore)}, {@link dev.once.outbox.OutboxRelay#builder(OutboxStore)} and {@link
   * dev.once.outbox.OutboxAdmin#of(OutboxStore)}.
   */
  public static OutboxStore outboxStore(DataSource dataSource) {
    return new PostgresOutboxStore(Objects.requireNonNull(dataSource, "dataSource"));
  }

  /**
   * {@link #outboxStore(DataSource)} in archive mode: a completed row moves to {@code
   * once.outbox_archive} in the statement that completes it, a discarded or retained row when the
   * relay purges it, and the relay's housekeeping makes the archive's day partitions ahead and
   * drops those past {@code archive}'s retention.
   */
  public static OutboxStore outboxStore(DataSource dataSource, OutboxArchive archive) {
    return new PostgresOutboxStore(
        Objects.requireNonNull(dataSource, "dataSource"),
        Objects.requireNonNull(archive, "archive"));
  }

  /**
   * The outbox on {@code once.outbox}, stamping rows with the database's clock. Thread-safe. Prefer
   * {@code Outbox.of(outboxStore(dataSource))}, whose store also serves the relay and the admin;
   * this one's store only appends.
   */
  public static Outbox outbox() {
    return Outbox.of(new PostgresOutboxStore(null));
  }

  /**
   * As {@link #outbox()}; {@code clock} is ignored.
   *
   * @deprecated rows are stamped with the database's clock: use {@link #outbox()}
   */
  @Deprecated(forRemoval = true)
  public static Outbox outbox(Clock clock) {
    return outbox();
  }

  /**
   * The inbox store on {@code once.inbox}: claims run in the caller's transaction, purges on
   * connections of {@code dataSource}. Thread-safe.
   */
  public static InboxStore inboxStore(DataSource dataSource) {
    return new PostgresInboxStore(Objects.requireNonNull(dataSource, "dataSource"));
  }
}
