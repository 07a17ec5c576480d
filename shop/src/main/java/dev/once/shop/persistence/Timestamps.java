package dev.once.shop.persistence;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Instants to and from {@code timestamptz} columns. Instants are cut to microseconds, the column's
 * precision, so that what a create answers equals what a later read answers.
 */
public final class Timestamps {
  private Timestamps() {}

  /** {@code instant} cut to the database's precision. */
  public static Instant truncate(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  /** The current instant of {@code clock}, cut to the database's precision. */
  public static Instant now(Clock clock) {
    return truncate(clock.instant());
  }

  /** A JDBC parameter value for a {@code timestamptz} column. */
  public static OffsetDateTime utc(Instant instant) {
    return truncate(instant).atOffset(ZoneOffset.UTC);
  }

  /** A non-null {@code timestamptz} column. */
  public static Instant read(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, OffsetDateTime.class).toInstant();
  }
}
