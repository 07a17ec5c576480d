package dev.once.postgres;

/**
 * The archive mode of the outbox store ({@code V11__outbox_archive.sql}): finished rows move to
 * {@code once.outbox_archive}, partitioned by day, instead of being deleted, and are kept for
 * {@code retentionDays}; retention drops whole day partitions. Off unless a store is made with one
 * ({@link PostgresStores#outboxStore(javax.sql.DataSource, OutboxArchive)}).
 *
 * @param retentionDays whole days a finished row is kept in the archive, counted in UTC days by the
 *     database's clock: the partition of a day is dropped once that day is more than this many days
 *     ago. 1 to {@value #MAX_RETENTION_DAYS}.
 * @param daysAhead days after today whose partitions are made ahead, so that a completion always
 *     finds its partition even if the housekeeping does not run for that long. 1 to {@value
 *     #MAX_DAYS_AHEAD}.
 */
public record OutboxArchive(int retentionDays, int daysAhead) {
  /** Longest retention, in days (ten years). */
  public static final int MAX_RETENTION_DAYS = 3650;

  /** Most days of partitions made ahead. */
  public static final int MAX_DAYS_AHEAD = 31;

  /** 30 days kept, 7 days of partitions ahead. */
  public static final OutboxArchive DEFAULT = new OutboxArchive(30, 7);

  /**
   * @throws IllegalArgumentException if a value is out of range
   */
  public OutboxArchive {
    if (retentionDays < 1 || retentionDays > MAX_RETENTION_DAYS) {
      throw new IllegalArgumentException(
          "retentionDays must be 1 to " + MAX_RETENTION_DAYS + ", but was " + retentionDays);
    }
    if (daysAhead < 1 || daysAhead > MAX_DAYS_AHEAD) {
      throw new IllegalArgumentException(
          "daysAhead must be 1 to " + MAX_DAYS_AHEAD + ", but was " + daysAhead);
    }
  }
}
