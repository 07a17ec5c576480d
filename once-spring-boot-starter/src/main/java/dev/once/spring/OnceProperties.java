package dev.once.spring;

import static dev.once.idempotency.IdempotencyLimits.MAX_LEASE_SECONDS;
import static dev.once.idempotency.IdempotencyLimits.MAX_PURGE_BATCH_SIZE;
import static dev.once.idempotency.IdempotencyLimits.MIN_PURGE_BATCH_SIZE;
import static dev.once.idempotency.IdempotencyLimits.MIN_SECONDS;

import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.RelayLimits;
import dev.once.outbox.RetryPolicy;
import dev.once.postgres.OutboxArchive;
import dev.once.spring.internal.Bounds;
import dev.once.spring.internal.CrossChecked;
import dev.once.spring.internal.DataSizeRange;
import dev.once.spring.internal.DecimalRange;
import dev.once.spring.internal.DurationRange;
import dev.once.spring.internal.IntRange;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Configuration of Once under the {@code once} prefix: immutable, bound through the constructors,
 * and checked by Bean Validation when the application starts. A bad value stops the start; Spring
 * Boot's report names the property, its value and the allowed range, such as {@code Property:
 * once.idempotency.lease, Value: "30d", Reason: must be 1s to 24d}. The ranges that once-core's
 * builders enforce are once-core's constants ({@link dev.once.idempotency.IdempotencyEngine},
 * {@link RelayLimits}, {@link RetryPolicy}, {@link dev.once.inbox.Inbox}), so a value accepted here
 * is accepted there.
 *
 * @param idempotency The HTTP idempotency contract
 * @param schema Creation of Once's own tables
 * @param outbox The transactional outbox and its relay
 * @param inbox The inbox of event consumers
 */
@ConfigurationProperties(prefix = "once")
@Validated
@CrossChecked
public record OnceProperties(
    @Valid @DefaultValue Idempotency idempotency,
    @Valid @DefaultValue Schema schema,
    @Valid @DefaultValue Outbox outbox,
    @Valid @DefaultValue Inbox inbox)
    implements CrossChecked.Rules {

  public OnceProperties {
    idempotency = idempotency != null ? idempotency : defaults().idempotency();
    schema = schema != null ? schema : defaults().schema();
    outbox = outbox != null ? outbox : defaults().outbox();
    inbox = inbox != null ? inbox : defaults().inbox();
  }

  /** Every default, as an application with no {@code once.*} property gets it (not validated). */
  public static OnceProperties defaults() {
    return Defaults.INSTANCE;
  }

  /** The defaults, bound once from no property at all. */
  private static final class Defaults {
    static final OnceProperties INSTANCE = new Binder().bindOrCreate("once", OnceProperties.class);
  }

  /**
   * A message redelivered after its inbox record was purged is applied again: the inbox must keep
   * records longer than any retry policy keeps retrying.
   */
  @Override
  public void check(CrossChecked.Rejections rejections) {
    Map<String, RetryPolicy> policies;
    try {
      policies = OutboxSettings.policies(outbox.relay());
    } catch (IllegalArgumentException e) {
      return; // a field of a policy is out of range: its own constraint reports it
    }
    for (Map.Entry<String, RetryPolicy> policy : policies.entrySet()) {
      Duration span = policy.getValue().longestRetrySpan();
      if (inbox.retention().compareTo(span) <= 0) {
        rejections.reject(
            "inbox.retention",
            "must be longer than the longest retry span of "
                + policy.getKey()
                + " ("
                + span
                + "), or a message retried after its inbox record was purged would be applied"
                + " twice");
        return;
      }
    }
  }

  /**
   * The HTTP idempotency contract.
   *
   * @param retention How long a completed key and its stored answer are kept before they may be
   *     purged. At least 1s.
   * @param retryAfter The Retry-After sent with a 409 to a duplicate that arrives while the key is
   *     in use. At least 1s.
   * @param lease Lease of a claimed key: longest time a request's transaction may last after its
   *     claim before the database ends it, rolls it back and frees the key, so a hung or endless
   *     handler cannot hold its key for longer. PostgreSQL 17 and later cap the whole transaction
   *     (transaction_timeout); older servers only cap each idle pause and each single statement.
   *     Stricter timeouts already configured for the session, role or database are kept. 1s to 24d.
   * @param http Which requests the servlet filter treats as idempotent, and its limits
   * @param purge The background purge of expired keys
   * @param limits Per-client caps on idempotent requests, and the bound of a stored answer
   */
  public record Idempotency(
      @DurationRange(minMillis = MIN_SECONDS * 1000) @DefaultValue("24h") Duration retention,
      @DurationRange(minMillis = MIN_SECONDS * 1000) @DefaultValue("1s") Duration retryAfter,
      @DurationRange(minMillis = MIN_SECONDS * 1000, maxMillis = MAX_LEASE_SECONDS * 1000)
          @DefaultValue("60s")
          Duration lease,
      @Valid @DefaultValue Http http,
      @Valid @DefaultValue Purge purge,
      @Valid @DefaultValue Limits limits) {}

  /**
   * Per-client caps on idempotent requests, checked after the request is known to be well formed
   * and before its key is claimed, and the bound of a stored answer. The caps count per instance:
   * with several instances a client may have as much again on each.
   *
   * @param maxInFlightPerClient Most idempotent requests of one client (the id the
   *     IdempotencyClientResolver names) that may run at once in this instance. One more is
   *     answered 429 too-many-requests-in-flight with Retry-After (once.idempotency.retry-after)
   *     before anything is looked up: nothing executes and its key stays free. Keep it below the
   *     connection pool's size, so that one client cannot hold every connection. 0 (the default):
   *     no cap. 0 to 100000.
   * @param newKeysPerMinute Most new idempotency keys one client may start per minute in this
   *     instance: a token bucket that holds this many and refills evenly over a minute, so a client
   *     may burst up to it. A key counts when its request executes; a replay, a mismatch or a key
   *     in use gives its token back. A request that finds the bucket empty is answered 429
   *     too-many-new-keys with Retry-After (the seconds until the next token), before anything is
   *     looked up, replays included: nothing executes and its key stays free. 0 (the default): no
   *     cap. 0 to 10000000.
   * @param maxAnswerSize Largest answer body stored with its key. A success with a larger body is
   *     rolled back before it commits (none of its writes remain, the key stays free) and answered
   *     422 answer-too-large; a larger refusal of the handler's is sent as it is but not stored. 1B
   *     to 2GB.
   */
  public record Limits(
      @IntRange(min = 0, max = 100_000, note = "(0: no cap)") @DefaultValue("0")
          int maxInFlightPerClient,
      @IntRange(min = 0, max = 10_000_000, note = "(0: no cap)") @DefaultValue("0")
          int newKeysPerMinute,
      @DataSizeRange @DefaultValue("64KB") DataSize maxAnswerSize) {}

  /**
   * Which requests the servlet filter treats as idempotent, and its limits.
   *
   * @param enabled Whether the Idempotency-Key servlet filter is registered
   * @param methods HTTP methods that require an Idempotency-Key
   * @param paths Path patterns (Spring PathPattern syntax, e.g. /v1/**) whose requests require an
   *     Idempotency-Key, in addition to the handlers marked @Idempotent (whose annotation wins).
   *     Empty by default: only annotated handlers are idempotent. Set /** for every endpoint.
   * @param maxBodySize Largest accepted request body on an idempotent endpoint; larger ones get
   *     413. 1B to 2GB.
   * @param maxJsonDepth Deepest accepted JSON nesting on an idempotent endpoint; deeper bodies get
   *     400. 1 to 10000.
   * @param problemTypeBase Prefix of the "type" URI of problem answers; the problem's slug is
   *     appended
   * @param filterOrder Order of the servlet filter; it must run after the application's
   *     authentication
   */
  public record Http(
      @DefaultValue("true") boolean enabled,
      @NotEmpty(message = "must name at least one method") @DefaultValue("POST")
          List<String> methods,
      @PathPatterns List<String> paths,
      @DataSizeRange @DefaultValue("1MB") DataSize maxBodySize,
      @IntRange(min = 1, max = 10_000) @DefaultValue("64") int maxJsonDepth,
      @UriPrefix @DefaultValue("https://once.dev/problems/") String problemTypeBase,
      @DefaultValue("0") int filterOrder) {

    public Http {
      methods = methods == null ? List.of() : List.copyOf(methods);
      paths = paths == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(paths));
    }
  }

  /**
   * The background purge of expired keys.
   *
   * @param enabled Whether expired keys are purged in the background
   * @param interval Time between two purge runs. At least 1s.
   * @param batchSize Keys deleted per statement (and per transaction) by the purge. 1 to 100000.
   * @param maxRunTime Longest a purge run goes on while its batches come back full (it is behind);
   *     the next run then starts after a pause of a second instead of the interval. 100ms to 1h.
   */
  public record Purge(
      @DefaultValue("true") boolean enabled,
      @DurationRange(minMillis = 1_000) @DefaultValue("1m") Duration interval,
      @IntRange(min = MIN_PURGE_BATCH_SIZE, max = MAX_PURGE_BATCH_SIZE) @DefaultValue("500")
          int batchSize,
      @DurationRange(minMillis = 100, maxMillis = 3_600_000) @DefaultValue("10s")
          Duration maxRunTime) {}

  /**
   * Creation of Once's own tables.
   *
   * @param migrate Whether Once migrates its tables (schema "once", history table
   *     once_schema_history) with Flyway at start. Turn off if your team applies the scripts in its
   *     own migrations.
   */
  public record Schema(@DefaultValue("true") boolean migrate) {}

  /**
   * The transactional outbox.
   *
   * @param relay The relay that delivers committed rows
   * @param loadShedding Load shedding on the outbox's backlog
   * @param events Event types this application publishes through the outbox, e.g.
   *     payment.succeeded. Their rows are delivered to the InboxConsumer beans that take them, each
   *     through the inbox, and are marked delivered at once when no consumer takes them yet, so
   *     they neither pile up nor hold back later rows of their aggregate.
   * @param archive The archive of finished rows
   */
  public record Outbox(
      @Valid @DefaultValue Relay relay,
      @Valid @DefaultValue LoadShedding loadShedding,
      List<String> events,
      @Valid @DefaultValue Archive archive) {

    public Outbox {
      events = events == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(events));
    }
  }

  /**
   * The archive of finished outbox rows: instead of being deleted, a delivered row moves to
   * once.outbox_archive in the statement that completes it (a row kept by delivered-retention, and
   * a discarded row, when the relay purges it), partitioned by day; retention drops whole day
   * partitions. The replay reads it. Off by default. See docs/operations.md.
   *
   * @param enabled Whether finished rows move to the archive instead of being deleted
   * @param retention How long the archive keeps a row, in whole days (UTC days of the database's
   *     clock): a day's partition is dropped once the day is older than this. 1d to 3650d.
   * @param daysAhead Days after today whose partitions the relay makes ahead (at start and every
   *     hour), so a completion always finds its partition. 1 to 31.
   */
  @CrossChecked
  public record Archive(
      @DefaultValue("false") boolean enabled,
      @DurationRange(minMillis = 86_400_000L, maxMillis = 3650 * 86_400_000L) @DefaultValue("30d")
          Duration retention,
      @IntRange(min = 1, max = OutboxArchive.MAX_DAYS_AHEAD) @DefaultValue("7") int daysAhead)
      implements CrossChecked.Rules {

    /** The core's archive mode, or {@code null} when the archive is off. */
    public @Nullable OutboxArchive mode() {
      return enabled ? new OutboxArchive((int) retention.toDays(), daysAhead) : null;
    }

    /** A day's partition is dropped whole: the retention is whole days. */
    @Override
    public void check(CrossChecked.Rejections rejections) {
      if (retention != null && !retention.equals(Duration.ofDays(retention.toDays()))) {
        rejections.reject("retention", "must be whole days, e.g. 30d");
      }
    }
  }

  /**
   * Load shedding on the outbox's backlog: while the oldest row waiting for the relay has waited
   * longer than max-due-age, appends to the outbox (TransactionalOutbox.append, and publish of an
   * event that something consumes) throw OutboxOverloadedException, which the starter answers 503
   * with Retry-After, so the backlog and its delay stay bounded under overload. Work the relay
   * itself does (handlers, inbox consumers) is never shed.
   *
   * @param enabled Whether new work that appends to the outbox is refused while the relay is too
   *     far behind
   * @param maxDueAge Longest time the oldest due row (pending, not leased, not held back behind an
   *     earlier row of its aggregate) may have waited for the relay before new appends are refused.
   *     Size it above the delay the relay shows at its usual peak. 100ms to 24h.
   * @param sampleInterval How often a background thread reads the age of the oldest due row (one
   *     short query, never on the request path). At most max-due-age. 10ms to 1m.
   */
  @CrossChecked
  public record LoadShedding(
      @DefaultValue("false") boolean enabled,
      @DurationRange(minMillis = 100, maxMillis = 24 * 3_600_000L) @DefaultValue("5s")
          Duration maxDueAge,
      @DurationRange(minMillis = 10, maxMillis = 60_000) @DefaultValue("250ms")
          Duration sampleInterval)
      implements CrossChecked.Rules {

    @Override
    public void check(CrossChecked.Rejections rejections) {
      if (sampleInterval != null && maxDueAge != null && sampleInterval.compareTo(maxDueAge) > 0) {
        rejections.reject(
            "sampleInterval", "must be at most max-due-age (" + Bounds.duration(maxDueAge) + ")");
      }
    }
  }

  /**
   * The relay that delivers committed outbox rows to the application's {@code OutboxHandler} beans
   * and its {@code InboxConsumer} beans. It runs only when there is at least one of them.
   *
   * @param enabled Whether the relay runs in this application instance
   * @param autoStart Whether the relay starts with the application context. False builds it, with
   *     every handler and consumer, but leaves it stopped: a test delivers the due rows by calling
   *     OutboxRelay.runOnce() (once-test's ManualRelay) instead of waiting for the relay's threads.
   *     The relay's health indicator is then DOWN.
   * @param workers Threads that run handlers; rows of different aggregates are handled in parallel.
   *     1 to 1000.
   * @param batchSize Most rows claimed by one statement. 1 to 10000.
   * @param handlerBatchSize Most rows of one type handed to a batch handler in one call (the event
   *     transports, in process and Kafka, and handlers that implement BatchMessageHandler): with
   *     batch handlers the relay claims up to this many rows per free worker, at most batch-size
   *     per claim. 1 to 10000.
   * @param poolSize Connections of the relay's own pool, copied from the application's Hikari pool:
   *     its claims, heartbeats and outcomes, and its handlers' transactions (through the
   *     application's "dataSource" bean, which routes the relay's threads there). 0 shares the
   *     application's pool. 0 to 100.
   * @param lease How long a claim holds a row without a heartbeat; the relay renews it every third
   *     of it while the handler runs. Bounds how long the rows of a killed instance wait before
   *     another instance (or the restarted one) takes them. 1s to 24h.
   * @param handlerTimeout How long a handler may run before it is interrupted and its row released
   *     for a retry (dead after the last attempt), for types without a handler-timeout under
   *     "types". 10ms to 24h.
   * @param claimCoalescing How long the relay, woken by a commit soon after its last claim, waits
   *     before claiming again, so that the commits of that window share one claim. 0 to 1s.
   * @param asyncCompletions Whether a handler's transaction that completes its row (an inbox
   *     consumer's, a settlement through TransactionalOutbox.completeInTransaction) commits without
   *     waiting for the WAL flush. Safe when a redelivery re-derives what it wrote (idempotent
   *     receivers, inbox consumers); a crash then costs a redelivery instead of a flush per row.
   *     See docs/outbox.md.
   * @param pollInterval Time between polls when nothing wakes the relay. A commit that appended
   *     rows through the TransactionalOutbox wakes it at once. 10ms to 1h.
   * @param deliveredRetention How long delivered rows are kept before they are purged. 0 to 365d.
   * @param purgeBatchSize Most delivered rows one purge statement deletes. 1 to 100000.
   * @param shutdownTimeout How long the shutdown waits for rows in flight. 0 to 1h.
   * @param healthMaxDueAge The relay's health indicator (with Spring Boot's health support on the
   *     classpath): DOWN when the oldest due outbox row has waited longer than this, or the relay
   *     is not running. 1s to 365d.
   * @param retry The retry policy of every message type that has no entry under "types"
   * @param types Retry policies per message type, e.g.
   *     once.outbox.relay.types[payment.succeeded].max-attempts (brackets keep the dots of a type
   *     name). Fields left out take the value of once.outbox.relay.retry.
   * @param pausedTypes Message types paused when the relay starts, on every instance (the pause is
   *     in the database), until an operator resumes them (the Actuator endpoint once, or
   *     OutboxAdmin.resume); a type paused already keeps its first pause. Each 1 to 200 characters.
   */
  @CrossChecked
  public record Relay(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("true") boolean autoStart,
      @IntRange(min = RelayLimits.MIN_WORKERS, max = RelayLimits.MAX_WORKERS)
          @DefaultValue("" + RelayLimits.DEFAULT_WORKERS)
          int workers,
      @IntRange(min = RelayLimits.MIN_BATCH_SIZE, max = RelayLimits.MAX_BATCH_SIZE)
          @DefaultValue("" + RelayLimits.DEFAULT_BATCH_SIZE)
          int batchSize,
      @IntRange(min = RelayLimits.MIN_BATCH_SIZE, max = RelayLimits.MAX_BATCH_SIZE)
          @DefaultValue("" + RelayLimits.DEFAULT_HANDLER_BATCH_SIZE)
          int handlerBatchSize,
      @IntRange(min = 0, max = 100) @DefaultValue("" + DEFAULT_POOL_SIZE) int poolSize,
      @DurationRange(
              minMillis = RelayLimits.MIN_LEASE_MILLIS,
              maxMillis = RelayLimits.MAX_LEASE_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_LEASE)
          Duration lease,
      @DurationRange(
              minMillis = RelayLimits.MIN_HANDLER_TIMEOUT_MILLIS,
              maxMillis = RelayLimits.MAX_HANDLER_TIMEOUT_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_HANDLER_TIMEOUT)
          Duration handlerTimeout,
      @DurationRange(
              minMillis = RelayLimits.MIN_CLAIM_COALESCING_MILLIS,
              maxMillis = RelayLimits.MAX_CLAIM_COALESCING_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_CLAIM_COALESCING)
          Duration claimCoalescing,
      @DefaultValue("false") boolean asyncCompletions,
      @DurationRange(
              minMillis = RelayLimits.MIN_POLL_INTERVAL_MILLIS,
              maxMillis = RelayLimits.MAX_POLL_INTERVAL_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_POLL_INTERVAL)
          Duration pollInterval,
      @DurationRange(
              minMillis = RelayLimits.MIN_DELIVERED_RETENTION_MILLIS,
              maxMillis = RelayLimits.MAX_DELIVERED_RETENTION_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_DELIVERED_RETENTION)
          Duration deliveredRetention,
      @IntRange(min = RelayLimits.MIN_PURGE_BATCH_SIZE, max = RelayLimits.MAX_PURGE_BATCH_SIZE)
          @DefaultValue("" + RelayLimits.DEFAULT_PURGE_BATCH_SIZE)
          int purgeBatchSize,
      @DurationRange(
              minMillis = RelayLimits.MIN_SHUTDOWN_TIMEOUT_MILLIS,
              maxMillis = RelayLimits.MAX_SHUTDOWN_TIMEOUT_MILLIS)
          @DefaultValue(RelayLimits.DEFAULT_SHUTDOWN_TIMEOUT)
          Duration shutdownTimeout,
      @DurationRange(minMillis = 1_000, maxMillis = 365 * 86_400_000L) @DefaultValue("1m")
          Duration healthMaxDueAge,
      @Valid @DefaultValue Retry retry,
      Map<String, @Valid Retry> types,
      List<@NotBlank @Size(max = OutboxAdmin.MAX_TYPE_LENGTH) String> pausedTypes)
      implements CrossChecked.Rules {

    /** The default of {@code once.outbox.relay.pool-size}. */
    public static final int DEFAULT_POOL_SIZE = 8;

    public Relay {
      retry = retry != null ? retry : Retry.UNSET;
      types = types == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(types));
      pausedTypes = pausedTypes == null ? List.of() : List.copyOf(pausedTypes);
    }

    /**
     * The retry policy of every type with no entry under {@code types}: {@code retry}, each unset
     * field from once-core's {@link RetryPolicy#DEFAULT}.
     */
    public RetryPolicy defaultRetryPolicy() {
      return OutboxSettings.defaultPolicy(this);
    }

    /** The retry policy of each type under {@code types}, each unset field from the default's. */
    public Map<String, RetryPolicy> typeRetryPolicies() {
      return OutboxSettings.typePolicies(this);
    }

    /**
     * A handler-timeout belongs to the relay or to a type, not to the default retry policy; and
     * each policy's max-delay, after what it takes from once.outbox.relay.retry and the core's
     * defaults, is at least its initial-delay.
     */
    @Override
    public void check(CrossChecked.Rejections rejections) {
      if (retry.handlerTimeout() != null) {
        rejections.reject(
            "retry.handlerTimeout",
            "is not a retry setting: use once.outbox.relay.handler-timeout");
      }
      Duration initial = or(retry.initialDelay(), RetryPolicy.DEFAULT.initialDelay());
      Duration max = or(retry.maxDelay(), RetryPolicy.DEFAULT.maxDelay());
      checkDelays("retry", initial, max, rejections);
      types.forEach(
          (type, policy) ->
              checkDelays(
                  "types[" + type + "]",
                  or(policy.initialDelay(), initial),
                  or(policy.maxDelay(), max),
                  rejections));
    }

    private static Duration or(Duration value, Duration fallback) {
      return value != null ? value : fallback;
    }

    private static void checkDelays(
        String path, Duration initial, Duration max, CrossChecked.Rejections rejections) {
      if (max.compareTo(initial) < 0) {
        rejections.reject(
            path + ".maxDelay",
            "must be at least the initial-delay (" + Bounds.duration(initial) + ")");
      }
    }
  }

  /**
   * A retry policy: exponential backoff with jitter, and the attempts after which a row turns dead.
   * Unset fields under once.outbox.relay.retry take once-core's RetryPolicy.DEFAULT; under types,
   * once.outbox.relay.retry's.
   *
   * @param maxAttempts Attempts in all, the first included, before the row turns dead. 1 to 1000.
   *     Default 10 under once.outbox.relay.retry; under types, unset takes
   *     once.outbox.relay.retry's.
   * @param initialDelay Delay before the second attempt. 1ms to 365d. Default 1s under
   *     once.outbox.relay.retry.
   * @param multiplier Growth of the delay per attempt. 1.0 to 10.0. Default 2.0 under
   *     once.outbox.relay.retry.
   * @param maxDelay Cap of the delay. At least initial-delay. Default 5m under
   *     once.outbox.relay.retry.
   * @param jitter Fraction of each delay drawn at random, so retries of rows that failed together
   *     spread out. 0.0 to 1.0. Default 0.5 under once.outbox.relay.retry.
   * @param handlerTimeout Under types only: how long this type's handler may run; unset takes
   *     once.outbox.relay.handler-timeout. 10ms to 24h.
   */
  public record Retry(
      @IntRange(min = RetryPolicy.MIN_ATTEMPTS, max = RetryPolicy.MAX_ATTEMPTS) Integer maxAttempts,
      @DurationRange(
              minMillis = RetryPolicy.MIN_INITIAL_DELAY_MILLIS,
              maxMillis = RetryPolicy.MAX_INITIAL_DELAY_MILLIS,
              optional = true)
          Duration initialDelay,
      @DecimalRange(min = RetryPolicy.MIN_MULTIPLIER, max = RetryPolicy.MAX_MULTIPLIER)
          Double multiplier,
      @DurationRange(minMillis = 0, optional = true) Duration maxDelay,
      @DecimalRange(min = RetryPolicy.MIN_JITTER, max = RetryPolicy.MAX_JITTER) Double jitter,
      @DurationRange(
              minMillis = RelayLimits.MIN_HANDLER_TIMEOUT_MILLIS,
              maxMillis = RelayLimits.MAX_HANDLER_TIMEOUT_MILLIS,
              optional = true)
          Duration handlerTimeout) {

    /** A policy that sets nothing: every field falls back. */
    static final Retry UNSET = new Retry(null, null, null, null, null, null);
  }

  /**
   * The inbox of event consumers.
   *
   * @param retention How long a consumer's record of a message is kept. A message redelivered after
   *     its record was purged is applied again, so this must be longer than the longest retry span
   *     of every retry policy, plus the time an operator may take to requeue a dead row. 1s to
   *     3650d.
   * @param purge The background purge of inbox records older than the retention
   */
  public record Inbox(
      @DurationRange(minMillis = 1_000, maxMillis = 3650 * 86_400_000L) @DefaultValue("7d")
          Duration retention,
      @Valid @DefaultValue InboxPurge purge) {}

  /**
   * The background purge of inbox records older than the retention.
   *
   * @param enabled Whether old inbox records are purged in the background
   * @param interval Time between two purge runs. 1s to 1d.
   * @param batchSize Records deleted per statement (and per transaction) by the purge. 1 to 100000.
   * @param maxRunTime Longest a purge run goes on while its batches come back full (it is behind);
   *     the next run then starts after a pause of a second instead of the interval. 100ms to 1h.
   */
  public record InboxPurge(
      @DefaultValue("true") boolean enabled,
      @DurationRange(minMillis = 1_000, maxMillis = 86_400_000L) @DefaultValue("5m")
          Duration interval,
      @IntRange(
              min = dev.once.inbox.Inbox.MIN_PURGE_LIMIT,
              max = dev.once.inbox.Inbox.MAX_PURGE_LIMIT)
          @DefaultValue("1000")
          int batchSize,
      @DurationRange(minMillis = 100, maxMillis = 3_600_000) @DefaultValue("10s")
          Duration maxRunTime) {}
}
