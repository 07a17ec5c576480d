package dev.once.outbox;

/**
 * The ranges {@link OutboxRelay.Builder#build()} accepts, as compile-time constants so that
 * configuration layers (the Spring Boot starter's properties) check the same bounds without
 * repeating them. Durations are in milliseconds; every range includes both ends.
 */
public final class RelayLimits {
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

  private RelayLimits() {}
}
