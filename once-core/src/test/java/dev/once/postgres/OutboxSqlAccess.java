package dev.once.postgres;

/** Lets the outbox tests outside this package EXPLAIN the relay's statements. */
public final class OutboxSqlAccess {
  private OutboxSqlAccess() {}

  public static String claim() {
    return OutboxSql.CLAIM;
  }
}
