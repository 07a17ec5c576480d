package dev.once.outbox;

import dev.once.OnceException;
import java.time.Duration;
import java.util.Objects;

/**
 * The outbox refuses new work because its relay is too far behind: the oldest row waiting for it
 * has waited longer than the configured limit (load shedding). Nothing was appended; the caller's
 * transaction must roll back, so that none of the work around the append commits either, and the
 * client should send the same request again after {@link #retryAfter()}. Safe to log: it names
 * durations only.
 */
public final class OutboxOverloadedException extends OnceException {
  private static final long serialVersionUID = 1L;

  private final Duration oldestDueAge;
  private final Duration limit;
  private final Duration retryAfter;

  /**
   * @param oldestDueAge how long the oldest row waiting for the relay had waited when last measured
   * @param limit the age above which new work is refused
   * @param retryAfter how long a client should wait before it sends the request again
   */
  public OutboxOverloadedException(Duration oldestDueAge, Duration limit, Duration retryAfter) {
    super(
        "The outbox takes no new work: its oldest due row has waited "
            + Objects.requireNonNull(oldestDueAge, "oldestDueAge")
            + ", longer than the limit of "
            + Objects.requireNonNull(limit, "limit")
            + "; retry after "
            + Objects.requireNonNull(retryAfter, "retryAfter")
            + ".");
    this.oldestDueAge = oldestDueAge;
    this.limit = limit;
    this.retryAfter = retryAfter;
  }

  /** How long the oldest row waiting for the relay had waited when last measured. */
  public Duration oldestDueAge() {
    return oldestDueAge;
  }

  /** The age above which new work is refused. */
  public Duration limit() {
    return limit;
  }

  /** How long a client should wait before sending the request again. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /**
   * {@link #retryAfter()} in whole seconds, rounded up and at least 1, as a {@code Retry-After}
   * header says it.
   */
  public long retryAfterSeconds() {
    long seconds = retryAfter.toSeconds();
    return Math.max(1, retryAfter.equals(Duration.ofSeconds(seconds)) ? seconds : seconds + 1);
  }
}
