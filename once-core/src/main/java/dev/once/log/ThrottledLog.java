package dev.once.log;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * A WARN for a condition that every request meets while it lasts (a full pool, a restarting
 * database, a flood of unknown API keys), logged at most once per interval for each condition; the
 * next message counts the occurrences left out in between. A burst of failures then costs a line
 * per interval, not a line (or a stack trace) per request, exactly when the log is needed most.
 *
 * <p>Conditions are map keys kept for the life of the process, so they must come from a small fixed
 * set (SQLSTATEs, names chosen in code), never from request data. Thread-safe: a lock per
 * condition, held only to count; logging happens outside it.
 */
public final class ThrottledLog {
  private final Consumer<String> sink;
  private final Duration interval;
  private final InstantSource clock;
  private final Map<String, Window> windows = new ConcurrentHashMap<>();

  /**
   * @param log where the warnings go
   * @param interval least time between two warnings of one condition
   * @param clock the time source (the application's {@code Clock}, so that tests can move it)
   */
  public ThrottledLog(Logger log, Duration interval, InstantSource clock) {
    this(log::warn, interval, clock);
  }

  /** Writes to {@code sink} instead of a logger: for tests. */
  ThrottledLog(Consumer<String> sink, Duration interval, InstantSource clock) {
    this.sink = sink;
    this.interval = interval;
    this.clock = clock;
  }

  /**
   * Logs {@code message} at WARN, without a stack trace, unless {@code condition} was logged less
   * than the interval ago; then only counts it. The message is built only when it is logged.
   */
  public void warn(String condition, Supplier<String> message) {
    long left = windows.computeIfAbsent(condition, c -> new Window()).admit(clock.instant());
    if (left >= 0) {
      sink.accept(
          message.get()
              + " ("
              + left
              + " more since the previous such message; it repeats at most every "
              + interval.toSeconds()
              + " s)");
    }
  }

  /** The interval of one condition. */
  private final class Window {
    private Instant loggedAt;
    private long left;

    /** How many occurrences were left out if this one is to be logged, or -1 to leave it out. */
    synchronized long admit(Instant now) {
      // A clock set back must not silence the condition until it catches up again.
      if (loggedAt == null || now.isBefore(loggedAt) || !now.isBefore(loggedAt.plus(interval))) {
        long count = left;
        left = 0;
        loggedAt = now;
        return count;
      }
      left++;
      return -1;
    }
  }
}
