package dev.once.postgres;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Times in Once's statements: the database's clock, and instants and durations bound as whole
 * microseconds ({@code bigint}).
 *
 * <p><b>The clock rule.</b> Every time that several processes compare (a key's expiry, whether an
 * outbox row is due, a lease's end, a purge's cut-off) is read from, and written with, the database
 * server's clock, {@link #NOW}, never the calling JVM's {@code Clock}: one clock for every node, so
 * a node whose clock runs ahead can neither take over rows another relay still holds nor purge keys
 * inside their retention. What a statement binds is a duration (a lease, a retention, a retry
 * delay), which the statement adds to its own {@link #NOW}; the only instants bound are ones the
 * database returned earlier (a claim's time, handed back to the completion).
 *
 * <p>{@link #NOW} is {@code statement_timestamp()}: the time the server received the current
 * statement. It is the same for every row and every comparison of one statement, so a claim's due
 * test, its lease test and the lease it writes agree ({@code clock_timestamp()} moves while the
 * statement runs, so two rows of one claim, or a test and a write, could see different times). And
 * unlike {@code now()}, which is frozen when the transaction began, it is current in a long
 * transaction: a request's answer stored a minute after its {@code BEGIN} expires a retention after
 * the answer, and a handler's transaction that completes its row stamps the completion's time. It
 * lags the true time by at most the running statement's duration (milliseconds), which only makes a
 * lease or a retention that long shorter.
 *
 * <p>Binding an {@code OffsetDateTime} makes the driver build a calendar per statement object,
 * which showed in the profile of every idempotent request; a {@code bigint} is bound as eight
 * bytes.
 */
final class SqlTimes {
  private SqlTimes() {}

  /** The database's clock, as every statement of Once reads it (see the class comment). */
  static final String NOW = "statement_timestamp()";

  /** {@link #NOW} as whole microseconds since the epoch ({@code bigint}). */
  static final String NOW_MICROS = "CAST(extract(epoch FROM " + NOW + ") * 1000000 AS bigint)";

  /** A {@code timestamptz} expression of one {@code bigint} parameter set by {@link #micros}. */
  static final String AT = "(timestamptz 'epoch' + CAST(? AS bigint) * interval '1 microsecond')";

  /**
   * An {@code interval} expression of one {@code bigint} parameter set by {@link
   * #micros(Duration)}.
   */
  static final String INTERVAL = "(CAST(? AS bigint) * interval '1 microsecond')";

  /** {@link #NOW} plus a duration parameter ({@link #micros(Duration)}). */
  static final String NOW_PLUS = "(" + NOW + " + " + INTERVAL + ")";

  /** {@link #NOW} minus a duration parameter ({@link #micros(Duration)}). */
  static final String NOW_MINUS = "(" + NOW + " - " + INTERVAL + ")";

  /**
   * The parameter value of {@link #AT} for {@code instant}: truncated to microseconds, {@code
   * timestamptz}'s precision.
   */
  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  /** The parameter value of {@link #INTERVAL} for {@code duration}, in whole microseconds. */
  static long micros(Duration duration) {
    return Math.multiplyExact(duration.getSeconds(), 1_000_000L) + duration.getNano() / 1_000;
  }

  /** An instant read as microseconds since the epoch ({@link #NOW_MICROS}). */
  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
