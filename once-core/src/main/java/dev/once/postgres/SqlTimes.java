package dev.once.postgres;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Instants bound as whole microseconds since the epoch ({@code bigint}), for the statements of the
 * request path. Binding an {@code OffsetDateTime} makes the driver build a calendar per statement
 * object, which showed in the profile of every idempotent request; a {@code bigint} is bound as
 * eight bytes. The value is the instant truncated to microseconds, {@code timestamptz}'s precision.
 */
final class SqlTimes {
  private SqlTimes() {}

  /** A {@code timestamptz} expression of one {@code bigint} parameter set by {@link #micros}. */
  static final String AT = "(timestamptz 'epoch' + CAST(? AS bigint) * interval '1 microsecond')";

  /** The parameter value of {@link #AT} for {@code instant}. */
  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }
}
