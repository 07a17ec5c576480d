package dev.once.outbox;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ranges {@link OutboxRelay.Builder#build()} accepts and the builder's defaults, as
 * compile-time constants so that configuration layers (the Spring Boot starter's properties) check
 * the same bounds and start from the same defaults without repeating them. The bounds of durations
 * are in milliseconds, and every range includes both ends; the defaults of durations are written as
 * in a properties file ({@code 10s}, {@code 5ms}, {@code 1m}).
 */
public final class RelayLimits {
  public static final int DEFAULT_WORKERS = 8;
  public static final int DEFAULT_BATCH_SIZE = 100;
  public static final int DEFAULT_HANDLER_BATCH_SIZE = 50;
  public static final int DEFAULT_PURGE_BATCH_SIZE = 1000;
  public static final String DEFAULT_LEASE = "10s";
  public static final String DEFAULT_HANDLER_TIMEOUT = "30s";
  public static final String DEFAULT_POLL_INTERVAL = "1s";
  public static final String DEFAULT_CLAIM_COALESCING = "5ms";
  public static final String DEFAULT_DELIVERED_RETENTION = "1m";
  public static final String DEFAULT_SHUTDOWN_TIMEOUT = "10s";

  public static final int MIN_WORKERS = 1;
  public static final int MAX_WORKERS = 1000;
  public static final int MIN_BATCH_SIZE = 1;
  public static final int MAX_BATCH_SIZE = 10_000;
  public static final int MIN_PURGE_BATCH_SIZE = 1;
  public static final int MAX_PURGE_BATCH_SIZE = 100_000;
  public static final long MIN_LEASE_MILLIS = 1_000;
  public static final long MAX_LEASE_MILLIS = 24 * 3_600_000L;
  public static final long MIN_POLL_INTERVAL_MILLIS = 10;
  public static final long MAX_POLL_INTERVAL_MILLIS = 3_600_000L;
  public static final long MIN_HANDLER_TIMEOUT_MILLIS = 10;
  public static final long MAX_HANDLER_TIMEOUT_MILLIS = 24 * 3_600_000L;
  public static final long MIN_CLAIM_COALESCING_MILLIS = 0;
  public static final long MAX_CLAIM_COALESCING_MILLIS = 1_000;
  public static final long MIN_DELIVERED_RETENTION_MILLIS = 0;
  public static final long MAX_DELIVERED_RETENTION_MILLIS = 365 * 86_400_000L;
  public static final long MIN_SHUTDOWN_TIMEOUT_MILLIS = 0;
  public static final long MAX_SHUTDOWN_TIMEOUT_MILLIS = 3_600_000L;

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private RelayLimits() {}

  /**
   * A default's duration: a whole number and a unit, {@code ms}, {@code s}, {@code m}, {@code h} or
   * {@code d}.
   *
   * @throws IllegalArgumentException for any other text
   */
  static Duration duration(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration such as 10s or 5ms: " + text);
    }
    long amount = Long.parseLong(m.group(1));
    switch (m.group(2)) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      default:
        return Duration.ofDays(amount);
    }
  }
}
