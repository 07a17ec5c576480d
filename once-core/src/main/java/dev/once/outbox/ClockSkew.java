package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the application's clock is from the database's, measured by the relay at start and then
 * every {@link #INTERVAL} with one {@code SELECT clock_timestamp()}. No decision of the relay
 * depends on it: due times, leases and purge cut-offs are the database's clock, in the statements
 * themselves. It serves what stays local: delivery latencies (the database's {@code created_at}
 * against this JVM's clock, corrected by the skew) and a warning to operators when the clocks
 * disagree by more than a tolerance, because the application's own timestamps (and the relay's
 * latency metrics, before the first reading) are then off by that much. Thread-safe.
 */
final class ClockSkew {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

  /** Time between two readings. */
  static final Duration INTERVAL = Duration.ofMinutes(1);

  /** A skew beyond this is logged at WARN (once while it lasts). */
  static final Duration TOLERANCE = Duration.ofSeconds(1);

  private final String name;
  private final Clock clock;
  private volatile Duration skew = Duration.ZERO;
  private volatile boolean warned;

  ClockSkew(String name, Clock clock) {
    this.name = name;
    this.clock = clock;
  }

  /**
   * Reads the database's clock once and updates the skew: the database's time minus the midpoint of
   * this clock's readings before and after the statement (so the round trip does not count).
   */
  void measure(OutboxStore store) {
    Instant before = clock.instant();
    Instant database = store.databaseTime();
    Instant after = clock.instant();
    Instant local = before.plus(Duration.between(before, after).dividedBy(2));
    Duration measured = Duration.between(local, database);
    skew = measured;
    boolean beyond = measured.abs().compareTo(TOLERANCE) > 0;
    if (beyond && !warned) {
      LOG.warn(
          "Outbox relay {}: this application's clock is {} {} the database's. Once decides due"
              + " times, leases, expiry and purges by the database's clock, so they are not"
              + " affected; timestamps the application takes from its own clock are off by that"
              + " much. Synchronise the clocks (NTP).",
          name,
          measured.abs(),
          measured.isNegative() ? "ahead of" : "behind");
    } else if (!beyond && warned) {
      LOG.info("Outbox relay {}: the application's clock agrees with the database's again.", name);
    }
    warned = beyond;
  }

  /** The database's clock minus this application's, as last measured; zero before the first. */
  Duration skew() {
    return skew;
  }

  /** This application's clock corrected by the skew: an estimate of the database's clock now. */
  Instant databaseNow() {
    return clock.instant().plus(skew);
  }
}
