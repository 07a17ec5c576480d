package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * What the relay's coordinator does between claims besides claiming, on the relay's own clock (a
 * local cadence; every cut-off is the database's): purging finished rows past the delivered
 * retention, releasing rows still marked paused whose type was resumed ({@link
 * OutboxStore#releaseResumed()}), and, with an archive, making its partitions ahead and dropping
 * the expired ones ({@link OutboxStore#maintainArchive()}). Used by the coordinator thread only,
 * apart from {@link #prepare()}, which {@code start()} runs before that thread exists.
 */
final class Housekeeping {
  /** Least time between two purges, whatever the poll interval. */
  static final Duration LEAST_PURGE_INTERVAL = Duration.ofSeconds(1);

  /** How often the archive's partitions are made ahead and expired ones dropped. */
  static final Duration ARCHIVE_MAINTENANCE_INTERVAL = Duration.ofHours(1);

  private final OutboxStore store;
  private final Clock clock;
  private final Duration cadence;
  private final Duration deliveredRetention;
  private final int purgeBatchSize;
  private final RelayCounters counters;
  private final String name;
  private final Logger log;

  private Instant nextPurgeAt = Instant.MIN;
  private Instant nextArchiveMaintenanceAt = Instant.MIN;
  private boolean purgeMore;

  Housekeeping(OutboxRelay.Builder settings, RelayCounters counters, Logger log) {
    this.store = settings.store;
    this.clock = settings.clock;
    this.cadence =
        settings.pollInterval.compareTo(LEAST_PURGE_INTERVAL) < 0
            ? LEAST_PURGE_INTERVAL
            : settings.pollInterval;
    this.deliveredRetention = settings.deliveredRetention;
    this.purgeBatchSize = settings.purgeBatchSize;
    this.counters = counters;
    this.name = settings.name;
    this.log = log;
  }

  /**
   * At the relay's start, before it claims anything: with an archive, its partitions are made now,
   * and a failure fails the start (a completion would find no partition).
   */
  void prepare() {
    if (store.archives()) {
      maintainArchive();
      nextArchiveMaintenanceAt = clock.instant().plus(ARCHIVE_MAINTENANCE_INTERVAL);
    }
  }

  /**
   * Does what is due; {@code true} if a purge batch came back full (more to purge now). Throws what
   * the store throws, except an archive's maintenance failure, which is logged and tried again an
   * hour later.
   */
  boolean runIfDue() {
    Instant now = clock.instant();
    if (!purgeMore && now.isBefore(nextPurgeAt)) {
      return false;
    }
    nextPurgeAt = now.plus(cadence);
    purgeMore = false; // stays false if the purge throws: it waits for its next turn
    if (store.releaseResumed() > 0) {
      counters.commits.increment();
    }
    if (store.archives() && !now.isBefore(nextArchiveMaintenanceAt)) {
      nextArchiveMaintenanceAt = now.plus(ARCHIVE_MAINTENANCE_INTERVAL);
      try {
        maintainArchive();
      } catch (RuntimeException e) {
        log.warn(
            "Outbox relay {} could not maintain the archive; it tries again in an hour", name, e);
      }
    }
    // Also with a retention of zero, whose completions remove their own rows: a discarded row is
    // finished by an operator, and only the purge removes (or archives) it.
    int purged = store.purgeDelivered(deliveredRetention, purgeBatchSize);
    counters.commits.increment();
    purgeMore = purged == purgeBatchSize;
    return purgeMore;
  }

  private void maintainArchive() {
    ArchiveMaintenance done = store.maintainArchive();
    if (done.made() > 0 || done.dropped() > 0) {
      log.info(
          "Outbox relay {}: archive partitions made {}, dropped past the retention {}.",
          name,
          done.made(),
          done.dropped());
    }
  }
}
