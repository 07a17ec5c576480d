package dev.once.idempotency;

import java.time.Duration;

/**
 * The ranges {@link IdempotencyEngine.Builder#build()} accepts and the engine's defaults, in one
 * place, so that configuration layers (the Spring Boot starter's properties) check the same bounds
 * and start from the same defaults without repeating them; the outbox relay's are {@link
 * dev.once.outbox.RelayLimits}.
 */
public final class IdempotencyLimits {

  /** Default time a completed key is kept: 24 hours. */
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

  /**
   * Default lease of a claimed key: the longest its transaction may last from the claim (PostgreSQL
   * 17 and later), sit idle between statements, or run one statement, before the database ends it
   * (or cancels the statement) and frees the key.
   */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /**
   * How much longer than the lease a request waits for any one answer of its database: the claim
   * sets the connection's network timeout to the lease plus this ({@link IdempotencyEngine#claim}),
   * so a database that stops answering (a stalled server, a network that drops every packet) fails
   * the request after at most that long, where the lease alone could not: the server cannot cancel
   * a statement whose client it no longer reaches.
   */
  public static final Duration NETWORK_GRACE = Duration.ofSeconds(5);

  /** Shortest retention, retry-after and lease the builder accepts, in seconds. */
  public static final long MIN_SECONDS = 1;

  /** Longest lease PostgreSQL can enforce (its timeouts are int milliseconds), in seconds. */
  public static final long MAX_LEASE_SECONDS = 24 * 86_400L;

  /** Longest lease PostgreSQL can enforce (its timeouts are int milliseconds): 24 days. */
  public static final Duration MAX_LEASE = Duration.ofSeconds(MAX_LEASE_SECONDS);

  /** Fewest keys one {@link IdempotencyEngine#purgeExpired} statement may delete. */
  public static final int MIN_PURGE_BATCH_SIZE = 1;

  /** Most keys one {@link IdempotencyEngine#purgeExpired} statement may delete. */
  public static final int MAX_PURGE_BATCH_SIZE = 100_000;

  /** Default {@code Retry-After} suggested to a duplicate that arrives while the key is in use. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  /** Default largest answer body {@link IdempotencyEngine#execute} stores with a key: 64 KiB. */
  public static final int DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

  /** Shortest retention of a key, for the engine's default and for one request's alike. */
  public static final Duration MIN_RETENTION = Duration.ofSeconds(1);

  /**
   * The one rule for a retention, the engine's ({@link IdempotencyEngine.Builder#retention}) and
   * one request's ({@link IdempotentRequest#retention()}) alike: at least {@link #MIN_RETENTION}.
   *
   * @return {@code retention}
   * @throws IllegalArgumentException if it is {@code null} or shorter than one second
   */
  public static Duration checkRetention(Duration retention) {
    if (retention == null || retention.compareTo(MIN_RETENTION) < 0) {
      throw new IllegalArgumentException("retention must be at least 1 second, was " + retention);
    }
    return retention;
  }

  private IdempotencyLimits() {}
}
