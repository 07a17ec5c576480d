package dev.once.spring.outbox;

import dev.once.log.ThrottledLog;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.PeriodicTask;
import dev.once.spring.internal.ThreadMark;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Load shedding on the outbox's backlog ({@code once.outbox.load-shedding.*}): a daemon thread
 * reads {@link OutboxAdmin#oldestClaimableAge()} every sample interval, and while the last reading
 * is above {@code max-due-age}, {@link #check()} throws {@link OutboxOverloadedException}: {@link
 * TransactionalOutbox} calls it before every append, so new work is refused, its transaction rolls
 * back, and the backlog and its delay stay bounded instead of growing for as long as the load
 * lasts. The request path reads a volatile field and nothing else: no database round trip.
 *
 * <p>Work the relay does is never shed: a handler or an inbox consumer that appends (an event
 * published when a provider answers, say) drains the backlog, and refusing it would retry the row
 * and keep the backlog old. Such work runs inside {@link ThreadMark#ACCEPTED_WORK}: the relay's
 * handlers through {@link RelayWork#marked}, once-kafka's inbox listeners around each record or
 * batch they apply, since a record's consumer is work accepted upstream just as much (refused, it
 * would be retried with its partition stalled behind it, and dead-lettered in the end).
 *
 * <p>A reading that fails (the database unreachable, no free connection in time) keeps the last
 * value and logs a warning at most every {@value #FAILURE_LOG_SECONDS} s; appends then fail or
 * succeed on their own. Thread-safe.
 */
public final class OutboxLoadShedding implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(OutboxLoadShedding.class);

  static final long FAILURE_LOG_SECONDS = 10;

  private static final OutboxLoadShedding OFF = new OutboxLoadShedding();

  private final OutboxAdmin admin;
  private final Duration maxDueAge;
  private final PeriodicTask task;
  private final ThrottledLog failures;
  private volatile Duration oldestDueAge = Duration.ZERO;
  private volatile boolean shedding;

  /**
   * @param admin where the age is read
   * @param maxDueAge the age above which appends are refused
   * @param sampleInterval time between two readings
   * @param threads where the sampling thread comes from
   */
  OutboxLoadShedding(
      OutboxAdmin admin, Duration maxDueAge, Duration sampleInterval, OnceThreads threads) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.maxDueAge = Objects.requireNonNull(maxDueAge, "maxDueAge");
    this.task =
        new PeriodicTask(
            "once-outbox-load-shedding",
            Duration.ZERO,
            Objects.requireNonNull(sampleInterval, "sampleInterval"),
            this::sample,
            threads);
    this.failures =
        new ThrottledLog(log, Duration.ofSeconds(FAILURE_LOG_SECONDS), Clock.systemUTC());
  }

  private OutboxLoadShedding() {
    this.admin = null;
    this.maxDueAge = null;
    this.task = null;
    this.failures = null;
  }

  /** Shedding turned off: {@link #check()} never throws, and nothing is read. */
  static OutboxLoadShedding off() {
    return OFF;
  }

  /** Whether this sheds at all ({@code once.outbox.load-shedding.enabled}). */
  public boolean isEnabled() {
    return admin != null;
  }

  /**
   * Refuses new work while the last reading is above the limit, unless the current thread works on
   * accepted work ({@link ThreadMark#ACCEPTED_WORK}: a relay handler, a Kafka inbox consumer).
   *
   * @throws OutboxOverloadedException with the age read and a suggested retry delay
   */
  void check() {
    if (!shedding || ThreadMark.ACCEPTED_WORK.active()) {
      return;
    }
    Duration age = oldestDueAge;
    throw new OutboxOverloadedException(age, maxDueAge, retryAfter(age, maxDueAge));
  }

  /** Whether the last reading was above the limit, so that appends are refused now. */
  public boolean isShedding() {
    return shedding;
  }

  /** The last reading: how long the oldest row waiting for the relay had waited. */
  public Duration oldestDueAge() {
    return oldestDueAge;
  }

  /**
   * Reads the age now and decides. Runs on the background thread every sample interval; never
   * throws.
   */
  void sample() {
    if (admin == null) {
      return;
    }
    Duration age;
    try {
      age = admin.oldestClaimableAge();
    } catch (RuntimeException e) {
      failures.warn(
          "sample",
          () ->
              "Could not read the age of the oldest due outbox row; load shedding keeps its last"
                  + " reading ("
                  + oldestDueAge
                  + "): "
                  + e);
      return;
    }
    boolean over = age.compareTo(maxDueAge) > 0;
    oldestDueAge = age;
    if (over != shedding) {
      shedding = over;
      if (over) {
        log.warn(
            "Outbox load shedding on: the oldest due row has waited {}, longer than"
                + " once.outbox.load-shedding.max-due-age ({}); new work that appends to the outbox"
                + " is refused (503 with Retry-After) until the relay catches up.",
            age,
            maxDueAge);
      } else {
        log.info(
            "Outbox load shedding off: the oldest due row has waited {}, within {}.",
            age,
            maxDueAge);
      }
    }
  }

  /**
   * The delay suggested to a refused client: how far the backlog is past the limit, which the relay
   * must at least catch up, but at least one second and at most the limit itself, so that a client
   * comes back soon after the relay recovers. Every client refused on one reading gets the same
   * delay: spreading their retries (jitter) is the clients' part.
   */
  static Duration retryAfter(Duration age, Duration maxDueAge) {
    Duration excess = age.minus(maxDueAge);
    Duration ceiling =
        maxDueAge.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : maxDueAge;
    if (excess.compareTo(Duration.ofSeconds(1)) < 0) {
      return Duration.ofSeconds(1);
    }
    return excess.compareTo(ceiling) > 0 ? ceiling : excess;
  }

  @Override
  public void start() {
    if (task != null) {
      task.start();
    }
  }

  @Override
  public void stop() {
    if (task != null) {
      task.stop();
    }
  }

  @Override
  public boolean isRunning() {
    return task != null && task.isRunning();
  }
}
