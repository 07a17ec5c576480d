package dev.once.outbox;

import dev.once.failures.TransientFailures;
import dev.once.log.ThrottledLog;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * Logs the relay's database failures, at most once a minute per condition (a database outage would
 * otherwise log a line per poll and per row). Thread-safe.
 */
final class RelayFailures {
  private final ThrottledLog log;
  private final String name;

  RelayFailures(String name, Clock clock) {
    this.name = name;
    this.log =
        new ThrottledLog(LoggerFactory.getLogger(OutboxRelay.class), Duration.ofMinutes(1), clock);
  }

  /** Reports that the relay could not {@code what}; classified by SQLSTATE, never by message. */
  void report(String what, RuntimeException failure) {
    String condition = TransientFailures.condition(failure);
    boolean transientFailure = TransientFailures.isTransient(failure);
    log.warn(
        what + " " + condition,
        () ->
            "Outbox relay "
                + name
                + " could not "
                + what
                + " ("
                + condition
                + (transientFailure
                    ? ", transient: the database is busy or unreachable"
                    : ", not transient: check the schema and the database role")
                + "); it tries again at its next poll.");
  }
}
