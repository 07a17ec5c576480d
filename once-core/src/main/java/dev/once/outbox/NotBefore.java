package dev.once.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a message may be delivered at the earliest: at an instant, or a delay after its append. The
 * relay does not claim the row before then; it is claimed within a poll interval after. The delay
 * is added to the database's clock at the append, as every due time is, so relays whose clocks
 * differ agree on it; an instant is taken as given (an instant already past means now).
 *
 * <p>Per-aggregate order holds: the rows of the aggregate appended after a delayed one wait behind
 * it, as behind a row that is being retried. Rows appended before it are not held back.
 *
 * @param at the earliest instant, or {@code null} for a delay
 * @param delay the delay after the append, or {@code null} for an instant
 */
public record NotBefore(Instant at, Duration delay) {
  /**
   * The longest delay: ten years, far beyond what a message should wait, and within SQL's range.
   */
  public static final Duration MAX_DELAY = Duration.ofDays(3653);

  /** The latest instant: the end of year 9999, within what every database stores. */
  public static final Instant MAX_INSTANT = Instant.parse("9999-12-31T23:59:59Z");

  public NotBefore {
    if ((at == null) == (delay == null)) {
      throw new IllegalArgumentException("a NotBefore has an instant or a delay, not both");
    }
    if (delay != null && (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0)) {
      throw new IllegalArgumentException("delay must be 0 to " + MAX_DELAY + ", was " + delay);
    }
    if (at != null && at.isAfter(MAX_INSTANT)) {
      throw new IllegalArgumentException("at must be at most " + MAX_INSTANT + ", was " + at);
    }
  }

  /** Not before {@code at}. */
  public static NotBefore at(Instant at) {
    return new NotBefore(Objects.requireNonNull(at, "at"), null);
  }

  /** Not before {@code delay} after the append, by the database's clock. */
  public static NotBefore after(Duration delay) {
    return new NotBefore(null, Objects.requireNonNull(delay, "delay"));
  }
}
