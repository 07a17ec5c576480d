package dev.once.outbox;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How a message type is retried: exponential backoff with jitter, and a maximum number of attempts
 * after which the row turns {@code dead}. Immutable; validated on construction.
 *
 * @param maxAttempts attempts in all, the first included; 1 to 1000
 * @param initialDelay delay before the second attempt; 1 ms to 365 days
 * @param multiplier growth of the delay per attempt; 1.0 to 10.0
 * @param maxDelay cap of the delay; at least {@code initialDelay}
 * @param jitter fraction of the delay drawn at random, 0.0 (none) to 1.0 (full jitter): the delay
 *     is {@code d * (1 - jitter * r)} for a uniform {@code r} in [0, 1), so retries of many rows
 *     that failed together spread out
 */
public record RetryPolicy(
    int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay, double jitter) {

  /** Fewest {@link #maxAttempts()}. */
  public static final int MIN_ATTEMPTS = 1;

  /** Most {@link #maxAttempts()}. */
  public static final int MAX_ATTEMPTS = 1000;

  /** Shortest {@link #initialDelay()}, in milliseconds. */
  public static final long MIN_INITIAL_DELAY_MILLIS = 1;

  /** Longest {@link #initialDelay()}, in milliseconds: 365 days. */
  public static final long MAX_INITIAL_DELAY_MILLIS = 365 * 86_400_000L;

  /** Smallest {@link #multiplier()}. */
  public static final double MIN_MULTIPLIER = 1.0;

  /** Largest {@link #multiplier()}. */
  public static final double MAX_MULTIPLIER = 10.0;

  /** Smallest {@link #jitter()}: none. */
  public static final double MIN_JITTER = 0.0;

  /** Largest {@link #jitter()}: full jitter. */
  public static final double MAX_JITTER = 1.0;

  /**
   * 10 attempts, 1 s doubling up to 5 min, 50% jitter: at most 511 s (about 8.5 minutes) from the
   * first attempt to the last.
   */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(10, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.5);

  public RetryPolicy {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (maxAttempts < MIN_ATTEMPTS || maxAttempts > MAX_ATTEMPTS) {
      throw new IllegalArgumentException(
          "maxAttempts must be "
              + MIN_ATTEMPTS
              + " to "
              + MAX_ATTEMPTS
              + ", but was "
              + maxAttempts);
    }
    if (initialDelay.compareTo(Duration.ofMillis(MIN_INITIAL_DELAY_MILLIS)) < 0
        || initialDelay.compareTo(Duration.ofMillis(MAX_INITIAL_DELAY_MILLIS)) > 0) {
      throw new IllegalArgumentException(
          "initialDelay must be 1ms to 365d, but was " + initialDelay);
    }
    if (!(multiplier >= MIN_MULTIPLIER && multiplier <= MAX_MULTIPLIER)) {
      throw new IllegalArgumentException("multiplier must be 1.0 to 10.0, but was " + multiplier);
    }
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay must be at least initialDelay (" + initialDelay + "), but was " + maxDelay);
    }
    if (!(jitter >= MIN_JITTER && jitter <= MAX_JITTER)) {
      throw new IllegalArgumentException("jitter must be 0.0 to 1.0, but was " + jitter);
    }
  }

  /**
   * The delay after failed attempt number {@code attempt} (from 1), before jitter: {@code
   * initialDelay * multiplier^(attempt-1)}, capped at {@code maxDelay}.
   */
  public Duration baseDelay(int attempt) {
    double millis = initialDelay.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
    return millis >= maxDelay.toMillis() ? maxDelay : Duration.ofMillis((long) millis);
  }

  /** The delay after failed attempt {@code attempt}, with jitter drawn from {@code random}. */
  public Duration delay(int attempt, RandomGenerator random) {
    long base = baseDelay(attempt).toMillis();
    return Duration.ofMillis(Math.max(1, (long) (base * (1.0 - jitter * random.nextDouble()))));
  }

  /**
   * The longest time from the first attempt to the last: the sum of the base delays. An inbox must
   * keep its records longer than this (plus the time an operator takes to requeue).
   */
  public Duration longestRetrySpan() {
    Duration total = Duration.ZERO;
    for (int attempt = 1; attempt < maxAttempts; attempt++) {
      total = total.plus(baseDelay(attempt));
    }
    return total;
  }
}
