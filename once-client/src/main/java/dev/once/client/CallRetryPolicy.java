package dev.once.client;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How a call to another service retries (the client's policy; an outbox row's retries are {@code
 * dev.once.outbox.RetryPolicy}, with the same words: {@code initialDelay}, {@code maxDelay}, {@code
 * maxAttempts}): at most {@link #maxAttempts()} attempts within a total {@link #deadline()}, each
 * attempt cut off after {@link #attemptTimeout()} (or what is left of the deadline, if less), and
 * between attempts a wait of full jitter — uniformly random in {@code [0, min(maxDelay,
 * initialDelay × 2^(retry-1))]} for the {@code retry}-th wait — unless the answer's {@code
 * Retry-After} says how long. Immutable and thread-safe; every value is validated when built, with
 * a message naming it.
 *
 * <p>Defaults: 5 attempts, 100 ms initial delay, 5 s max delay, 10 s per attempt, 30 s deadline.
 */
public final class CallRetryPolicy {
  private static final CallRetryPolicy DEFAULTS = builder().build();

  private final Duration initialDelay;
  private final Duration maxDelay;
  private final int maxAttempts;
  private final Duration attemptTimeout;
  private final Duration deadline;

  private CallRetryPolicy(Builder b) {
    this.initialDelay = positive("initialDelay", b.initialDelay);
    this.maxDelay = positive("maxDelay", b.maxDelay);
    this.attemptTimeout = positive("attemptTimeout", b.attemptTimeout);
    this.deadline = positive("deadline", b.deadline);
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay must be at least initialDelay (" + initialDelay + "), but was " + maxDelay);
    }
    if (b.maxAttempts < 1) {
      throw new IllegalArgumentException(
          "maxAttempts must be at least 1, but was " + b.maxAttempts);
    }
    this.maxAttempts = b.maxAttempts;
  }

  private static Duration positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, but was " + value);
    }
    return value;
  }

  /** The defaults (see the class comment). */
  public static CallRetryPolicy defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this policy's values. */
  public Builder toBuilder() {
    return new Builder()
        .initialDelay(initialDelay)
        .maxDelay(maxDelay)
        .maxAttempts(maxAttempts)
        .attemptTimeout(attemptTimeout)
        .deadline(deadline);
  }

  public Duration initialDelay() {
    return initialDelay;
  }

  public Duration maxDelay() {
    return maxDelay;
  }

  /** At most this many attempts; {@link Integer#MAX_VALUE} means until the deadline. */
  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration attemptTimeout() {
    return attemptTimeout;
  }

  /** The whole call, from its start to the end of its last attempt or wait. */
  public Duration deadline() {
    return deadline;
  }

  /**
   * The full-jitter wait before retry {@code retry} (1 for the wait after the first attempt):
   * uniformly random in {@code [0, min(maxDelay, initialDelay × 2^(retry-1))]}, drawn from {@code
   * random}.
   */
  public Duration backoff(int retry, RandomGenerator random) {
    long base = initialDelay.toNanos();
    long cap = maxDelay.toNanos();
    int shift = Math.max(0, retry - 1);
    long ceiling = shift >= 62 || base > (cap >> Math.min(shift, 62)) ? cap : base << shift;
    return Duration.ofNanos(random.nextLong(ceiling + 1));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CallRetryPolicy p
        && initialDelay.equals(p.initialDelay)
        && maxDelay.equals(p.maxDelay)
        && maxAttempts == p.maxAttempts
        && attemptTimeout.equals(p.attemptTimeout)
        && deadline.equals(p.deadline);
  }

  @Override
  public int hashCode() {
    return Objects.hash(initialDelay, maxDelay, maxAttempts, attemptTimeout, deadline);
  }

  @Override
  public String toString() {
    return "CallRetryPolicy[initialDelay="
        + initialDelay
        + ", maxDelay="
        + maxDelay
        + ", maxAttempts="
        + maxAttempts
        + ", attemptTimeout="
        + attemptTimeout
        + ", deadline="
        + deadline
        + "]";
  }

  /** Builds a {@link CallRetryPolicy}; not thread-safe. {@link #build()} validates. */
  public static final class Builder {
    private Duration initialDelay = Duration.ofMillis(100);
    private Duration maxDelay = Duration.ofSeconds(5);
    private int maxAttempts = 5;
    private Duration attemptTimeout = Duration.ofSeconds(10);
    private Duration deadline = Duration.ofSeconds(30);

    private Builder() {}

    /** The first backoff's ceiling; doubles per retry up to {@link #maxDelay}. */
    public Builder initialDelay(Duration initialDelay) {
      this.initialDelay = initialDelay;
      return this;
    }

    /** The largest backoff ceiling (not a cap on {@code Retry-After}: the deadline is). */
    public Builder maxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
      return this;
    }

    /** At least 1; {@link Integer#MAX_VALUE} for "until the deadline". */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** The longest one attempt may take, connection included, before it counts as a time-out. */
    public Builder attemptTimeout(Duration attemptTimeout) {
      this.attemptTimeout = attemptTimeout;
      return this;
    }

    /** The total time of a call, its attempts and waits together. */
    public Builder deadline(Duration deadline) {
      this.deadline = deadline;
      return this;
    }

    /**
     * The policy.
     *
     * @throws IllegalArgumentException naming the value if one is null, zero or negative, if
     *     maxDelay is below initialDelay, or maxAttempts below 1
     */
    public CallRetryPolicy build() {
      return new CallRetryPolicy(this);
    }
  }
}
