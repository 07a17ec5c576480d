package dev.once.postgres;

/** Lets the outbox tests outside this package EXPLAIN the relay's statements. */
public final class OutboxSqlAccess {
  private OutboxSqlAccess() {}

  public static String claim() {
    return OutboxSql.CLAIM;
  }

  public static String claimSettings() {
    return OutboxSql.CLAIM_SETTINGS;
  }

  public static String stats() {
    return OutboxSql.STATS;
  }

  public static String purgeDelivered() {
    return OutboxSql.PURGE_DELIVERED;
  }

  public static String dead() {
    return OutboxSql.DEAD;
  }

  public static String oldestClaimable() {
    return OutboxSql.OLDEST_CLAIMABLE;
  }

  public static String deleteExpiredKeys() {
    return IdempotencySql.DELETE_EXPIRED;
  }

  public static String purgeInbox() {
    return InboxSql.PURGE;
  }
}
