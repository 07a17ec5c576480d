package dev.once.spring;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.outbox.RetryPolicy;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Configuration of Once under the {@code once} prefix. Every value is checked by {@link
 * #validate()} when the application starts; a bad value stops the start with a message naming the
 * property.
 */
@ConfigurationProperties(prefix = "once")
public class OnceProperties {

  private final Idempotency idempotency = new Idempotency();
  private final Schema schema = new Schema();
  private final Outbox outbox = new Outbox();
  private final Inbox inbox = new Inbox();

  public Idempotency getIdempotency() {
    return idempotency;
  }

  public Schema getSchema() {
    return schema;
  }

  public Outbox getOutbox() {
    return outbox;
  }

  public Inbox getInbox() {
    return inbox;
  }

  /** Checks every value; throws {@link IllegalArgumentException} naming the first bad property. */
  public void validate() {
    Idempotency i = idempotency;
    requireAtLeast("once.idempotency.retention", i.retention, Duration.ofSeconds(1));
    requireAtLeast("once.idempotency.retry-after", i.retryAfter, Duration.ofSeconds(1));
    requireAtLeast("once.idempotency.lease", i.lease, Duration.ofSeconds(1));
    if (i.lease.compareTo(IdempotencyEngine.MAX_LEASE) > 0) {
      throw bad("once.idempotency.lease", i.lease, "must be at most 24 days (PostgreSQL's limit)");
    }
    requireAtLeast("once.idempotency.purge.interval", i.purge.interval, Duration.ofSeconds(1));
    if (i.purge.batchSize < 1 || i.purge.batchSize > 100_000) {
      throw bad("once.idempotency.purge.batch-size", i.purge.batchSize, "must be 1 to 100000");
    }
    if (i.purge.maxRunTime == null
        || i.purge.maxRunTime.compareTo(Duration.ofMillis(100)) < 0
        || i.purge.maxRunTime.compareTo(Duration.ofHours(1)) > 0) {
      throw bad("once.idempotency.purge.max-run-time", i.purge.maxRunTime, "must be 100ms to 1h");
    }
    Http h = i.http;
    if (h.methods == null || h.methods.isEmpty()) {
      throw bad("once.idempotency.http.methods", h.methods, "must name at least one method");
    }
    if (h.paths == null) {
      throw bad("once.idempotency.http.paths", h.paths, "must be a list (empty for none)");
    }
    for (String path : h.paths) {
      if (!isPathPattern(path)) {
        throw bad(
            "once.idempotency.http.paths",
            path,
            "must hold Spring path patterns, such as /v1/orders/**");
      }
    }
    if (h.maxBodySize == null
        || h.maxBodySize.toBytes() < 1
        || h.maxBodySize.toBytes() > Integer.MAX_VALUE - 8) {
      throw bad("once.idempotency.http.max-body-size", h.maxBodySize, "must be 1B to 2GB");
    }
    if (h.maxJsonDepth < 1 || h.maxJsonDepth > 10_000) {
      throw bad("once.idempotency.http.max-json-depth", h.maxJsonDepth, "must be 1 to 10000");
    }
    if (h.problemTypeBase == null
        || h.problemTypeBase.isBlank()
        || !prefixesUris(h.problemTypeBase)) {
      throw bad(
          "once.idempotency.http.problem-type-base",
          h.problemTypeBase,
          "must be the start of a URI, such as https://example.com/problems/");
    }
    Limits l = i.limits;
    if (l.maxInFlightPerClient < 0 || l.maxInFlightPerClient > 100_000) {
      throw bad(
          "once.idempotency.limits.max-in-flight-per-client",
          l.maxInFlightPerClient,
          "must be 0 (no cap) to 100000");
    }
    if (l.newKeysPerMinute < 0 || l.newKeysPerMinute > 10_000_000) {
      throw bad(
          "once.idempotency.limits.new-keys-per-minute",
          l.newKeysPerMinute,
          "must be 0 (no cap) to 10000000");
    }
    if (l.maxAnswerSize == null
        || l.maxAnswerSize.toBytes() < 1
        || l.maxAnswerSize.toBytes() > Integer.MAX_VALUE - 8) {
      throw bad("once.idempotency.limits.max-answer-size", l.maxAnswerSize, "must be 1B to 2GB");
    }
    OutboxSettings.validate(this);
  }

  /** Whether {@code path} is a pattern Spring's {@code PathPatternParser} accepts. */
  private static boolean isPathPattern(String path) {
    if (path == null || path.isBlank()) {
      return false;
    }
    try {
      PathPatternParser.defaultInstance.parse(path.trim());
      return true;
    } catch (PatternParseException e) {
      return false;
    }
  }

  /** Whether a problem's {@code type}, this base followed by a slug, is a valid URI reference. */
  private static boolean prefixesUris(String base) {
    try {
      new URI(base + "slug");
      return true;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  static void requireAtLeast(String name, Duration value, Duration min) {
    if (value == null || value.compareTo(min) < 0) {
      throw bad(name, value, "must be at least " + min.toSeconds() + "s");
    }
  }

  static IllegalArgumentException bad(String name, Object value, String rule) {
    return new IllegalArgumentException(
        "Invalid configuration: " + name + " " + rule + ", but was '" + value + "'.");
  }

  /** The HTTP idempotency contract. */
  public static class Idempotency {
    /** How long a completed key and its stored answer are kept before they may be purged. */
    private Duration retention = Duration.ofHours(24);

    /** The Retry-After sent with a 409 to a duplicate that arrives while the key is in use. */
    private Duration retryAfter = Duration.ofSeconds(1);

    /**
     * Lease of a claimed key: longest time a request's transaction may last after its claim before
     * the database ends it, rolls it back and frees the key, so a hung or endless handler cannot
     * hold its key for longer. PostgreSQL 17 and later cap the whole transaction
     * (transaction_timeout); older servers only cap each idle pause and each single statement.
     * Stricter timeouts already configured for the session, role or database are kept. 1s to 24d.
     */
    private Duration lease = Duration.ofSeconds(60);

    private final Http http = new Http();
    private final Purge purge = new Purge();
    private final Limits limits = new Limits();

    public Duration getRetention() {
      return retention;
    }

    public void setRetention(Duration retention) {
      this.retention = retention;
    }

    public Duration getRetryAfter() {
      return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
      this.retryAfter = retryAfter;
    }

    public Duration getLease() {
      return lease;
    }

    public void setLease(Duration lease) {
      this.lease = lease;
    }

    public Http getHttp() {
      return http;
    }

    public Purge getPurge() {
      return purge;
    }

    public Limits getLimits() {
      return limits;
    }
  }

  /**
   * Per-client caps on idempotent requests, checked after the request is known to be well formed
   * and before its key is claimed, and the bound of a stored answer. The caps count per instance:
   * with several instances a client may have as much again on each.
   */
  public static class Limits {
    /**
     * Most idempotent requests of one client (the id the IdempotencyClientResolver names) that may
     * run at once in this instance. One more is answered 429 too-many-requests-in-flight with
     * Retry-After (once.idempotency.retry-after) before anything is looked up: nothing executes and
     * its key stays free. Keep it below the connection pool's size, so that one client cannot hold
     * every connection. 0 (the default): no cap. 0 to 100000.
     */
    private int maxInFlightPerClient = 0;

    /**
     * Most new idempotency keys one client may start per minute in this instance: a token bucket
     * that holds this many and refills evenly over a minute, so a client may burst up to it. A key
     * counts when its request executes; a replay, a mismatch or a key in use gives its token back.
     * A request that finds the bucket empty is answered 429 too-many-new-keys with Retry-After (the
     * seconds until the next token), before anything is looked up, replays included: nothing
     * executes and its key stays free. 0 (the default): no cap. 0 to 10000000.
     */
    private int newKeysPerMinute = 0;

    /**
     * Largest answer body stored with its key. A success with a larger body is rolled back before
     * it commits (none of its writes remain, the key stays free) and answered 422 answer-too-large;
     * a larger refusal of the handler's is sent as it is but not stored. 1B to 2GB.
     */
    private DataSize maxAnswerSize = DataSize.ofKilobytes(64);

    public int getMaxInFlightPerClient() {
      return maxInFlightPerClient;
    }

    public void setMaxInFlightPerClient(int maxInFlightPerClient) {
      this.maxInFlightPerClient = maxInFlightPerClient;
    }

    public int getNewKeysPerMinute() {
      return newKeysPerMinute;
    }

    public void setNewKeysPerMinute(int newKeysPerMinute) {
      this.newKeysPerMinute = newKeysPerMinute;
    }

    public DataSize getMaxAnswerSize() {
      return maxAnswerSize;
    }

    public void setMaxAnswerSize(DataSize maxAnswerSize) {
      this.maxAnswerSize = maxAnswerSize;
    }
  }

  /** Which requests the servlet filter treats as idempotent, and its limits. */
  public static class Http {
    /** Whether the Idempotency-Key servlet filter is registered. */
    private boolean enabled = true;

    /** HTTP methods that require an Idempotency-Key. */
    private List<String> methods = new ArrayList<>(List.of("POST"));

    /**
     * Path patterns (Spring PathPattern syntax, e.g. /v1/**) whose requests require an
     * Idempotency-Key, in addition to the handlers marked @Idempotent (whose annotation wins).
     * Empty by default: only annotated handlers are idempotent. Set /** for every endpoint.
     */
    private List<String> paths = new ArrayList<>();

    /** Largest accepted request body on an idempotent endpoint; larger ones get 413. */
    private DataSize maxBodySize = DataSize.ofMegabytes(1);

    /** Deepest accepted JSON nesting on an idempotent endpoint; deeper bodies get 400. */
    private int maxJsonDepth = 64;

    /** Prefix of the "type" URI of problem answers; the problem's slug is appended. */
    private String problemTypeBase = "https://once.dev/problems/";

    /** Order of the servlet filter; it must run after the application's authentication. */
    private int filterOrder = 0;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public List<String> getMethods() {
      return methods;
    }

    public void setMethods(List<String> methods) {
      this.methods = methods;
    }

    public List<String> getPaths() {
      return paths;
    }

    public void setPaths(List<String> paths) {
      this.paths = paths;
    }

    public DataSize getMaxBodySize() {
      return maxBodySize;
    }

    public void setMaxBodySize(DataSize maxBodySize) {
      this.maxBodySize = maxBodySize;
    }

    public int getMaxJsonDepth() {
      return maxJsonDepth;
    }

    public void setMaxJsonDepth(int maxJsonDepth) {
      this.maxJsonDepth = maxJsonDepth;
    }

    public String getProblemTypeBase() {
      return problemTypeBase;
    }

    public void setProblemTypeBase(String problemTypeBase) {
      this.problemTypeBase = problemTypeBase;
    }

    public int getFilterOrder() {
      return filterOrder;
    }

    public void setFilterOrder(int filterOrder) {
      this.filterOrder = filterOrder;
    }
  }

  /** The background purge of expired keys. */
  public static class Purge {
    /** Whether expired keys are purged in the background. */
    private boolean enabled = true;

    /** Time between two purge runs. */
    private Duration interval = Duration.ofMinutes(1);

    /** Keys deleted per statement (and per transaction) by the purge. */
    private int batchSize = 500;

    /**
     * Longest a purge run goes on while its batches come back full (it is behind); the next run
     * then starts after a pause of a second instead of the interval.
     */
    private Duration maxRunTime = Duration.ofSeconds(10);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public int getBatchSize() {
      return batchSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    public Duration getMaxRunTime() {
      return maxRunTime;
    }

    public void setMaxRunTime(Duration maxRunTime) {
      this.maxRunTime = maxRunTime;
    }
  }

  /** Creation of Once's own tables. */
  public static class Schema {
    /**
     * Whether Once migrates its tables (schema "once", history table once_schema_history) with
     * Flyway at start. Turn off if your team applies the scripts in its own migrations.
     */
    private boolean migrate = true;

    public boolean isMigrate() {
      return migrate;
    }

    public void setMigrate(boolean migrate) {
      this.migrate = migrate;
    }
  }

  /** The transactional outbox. */
  public static class Outbox {
    private final Relay relay = new Relay();

    private final LoadShedding loadShedding = new LoadShedding();

    /**
     * Event types this application publishes through the outbox, e.g. payment.succeeded. Their rows
     * are delivered to the InboxConsumer beans that take them, each through the inbox, and are
     * marked delivered at once when no consumer takes them yet, so they neither pile up nor hold
     * back later rows of their aggregate.
     */
    private List<String> events = new ArrayList<>();

    public Relay getRelay() {
      return relay;
    }

    public LoadShedding getLoadShedding() {
      return loadShedding;
    }

    public List<String> getEvents() {
      return events;
    }

    public void setEvents(List<String> events) {
      this.events = events;
    }
  }

  /**
   * Load shedding on the outbox's backlog: while the oldest row waiting for the relay has waited
   * longer than max-due-age, appends to the outbox (TransactionalOutbox.append, and publish of an
   * event that something consumes) throw OutboxOverloadedException, which the starter answers 503
   * with Retry-After, so the backlog and its delay stay bounded under overload. Work the relay
   * itself does (handlers, inbox consumers) is never shed.
   */
  public static class LoadShedding {
    /** Whether new work that appends to the outbox is refused while the relay is too far behind. */
    private boolean enabled = false;

    /**
     * Longest time the oldest due row (pending, not leased, not held back behind an earlier row of
     * its aggregate) may have waited for the relay before new appends are refused. Size it above
     * the delay the relay shows at its usual peak. 100ms to 24h.
     */
    private Duration maxDueAge = Duration.ofSeconds(5);

    /**
     * How often a background thread reads the age of the oldest due row (one short query, never on
     * the request path). At most max-due-age. 10ms to 1m.
     */
    private Duration sampleInterval = Duration.ofMillis(250);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getMaxDueAge() {
      return maxDueAge;
    }

    public void setMaxDueAge(Duration maxDueAge) {
      this.maxDueAge = maxDueAge;
    }

    public Duration getSampleInterval() {
      return sampleInterval;
    }

    public void setSampleInterval(Duration sampleInterval) {
      this.sampleInterval = sampleInterval;
    }
  }

  /**
   * The relay that delivers committed outbox rows to the application's {@code OutboxHandler} beans
   * and its {@code InboxConsumer} beans. It runs only when there is at least one of them.
   */
  public static class Relay {
    /** Whether the relay runs in this application instance. */
    private boolean enabled = true;

    /**
     * Threads that run handlers; rows of different aggregates are handled in parallel. 1 to 1000.
     */
    private int workers = 8;

    /** Most rows claimed by one statement. 1 to 10000. */
    private int batchSize = 100;

    static final int DEFAULT_POOL_SIZE = 8;

    /**
     * Connections of the relay's own pool, copied from the application's Hikari pool: its claims,
     * heartbeats and outcomes, and its handlers' transactions (through the application's
     * "dataSource" bean, which routes the relay's threads there). 0 shares the application's pool.
     * 0 to 100.
     */
    private int poolSize = DEFAULT_POOL_SIZE;

    /**
     * How long a claim holds a row without a heartbeat; the relay renews it every third of it while
     * the handler runs. Bounds how long the rows of a killed instance wait before another instance
     * (or the restarted one) takes them. 1s to 24h.
     */
    private Duration lease = Duration.ofSeconds(10);

    /**
     * How long a handler may run before it is interrupted and its row released for a retry (dead
     * after the last attempt), for types without a handler-timeout under "types". 10ms to 24h.
     */
    private Duration handlerTimeout = Duration.ofSeconds(30);

    /**
     * How long the relay, woken by a commit soon after its last claim, waits before claiming again,
     * so that the commits of that window share one claim. 0 to 1s.
     */
    private Duration claimCoalescing = Duration.ofMillis(5);

    /**
     * Whether a handler's transaction that completes its row (an inbox consumer's, a settlement
     * through TransactionalOutbox.completeInTransaction) commits without waiting for the WAL flush.
     * Safe when a redelivery re-derives what it wrote (idempotent receivers, inbox consumers); a
     * crash then costs a redelivery instead of a flush per row. See docs/outbox.md.
     */
    private boolean asyncCompletions = false;

    /**
     * Time between polls when nothing wakes the relay. A commit that appended rows through the
     * TransactionalOutbox wakes it at once. 10ms to 1h.
     */
    private Duration pollInterval = Duration.ofSeconds(1);

    /** How long delivered rows are kept before they are purged. 0 to 365d. */
    private Duration deliveredRetention = Duration.ofMinutes(1);

    /** Most delivered rows one purge statement deletes. 1 to 100000. */
    private int purgeBatchSize = 1000;

    /** How long the shutdown waits for rows in flight. 0 to 1h. */
    private Duration shutdownTimeout = Duration.ofSeconds(10);

    /**
     * The relay's health indicator (with Spring Boot's health support on the classpath): DOWN when
     * the oldest due outbox row has waited longer than this, or the relay is not running. 1s to
     * 365d.
     */
    private Duration healthMaxDueAge = Duration.ofMinutes(1);

    /** The retry policy of every message type that has no entry under "types". */
    private final Retry retry = Retry.defaults();

    /**
     * Retry policies per message type, e.g. once.outbox.relay.types[payment.succeeded].max-attempts
     * (brackets keep the dots of a type name). Fields left out take the value of
     * once.outbox.relay.retry.
     */
    private final Map<String, Retry> types = new LinkedHashMap<>();

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public int getWorkers() {
      return workers;
    }

    public void setWorkers(int workers) {
      this.workers = workers;
    }

    public int getBatchSize() {
      return batchSize;
    }

    public int getPoolSize() {
      return poolSize;
    }

    public void setPoolSize(int poolSize) {
      this.poolSize = poolSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    public Duration getLease() {
      return lease;
    }

    public void setLease(Duration lease) {
      this.lease = lease;
    }

    public Duration getHealthMaxDueAge() {
      return healthMaxDueAge;
    }

    public void setHealthMaxDueAge(Duration healthMaxDueAge) {
      this.healthMaxDueAge = healthMaxDueAge;
    }

    public Duration getHandlerTimeout() {
      return handlerTimeout;
    }

    public void setHandlerTimeout(Duration handlerTimeout) {
      this.handlerTimeout = handlerTimeout;
    }

    public boolean isAsyncCompletions() {
      return asyncCompletions;
    }

    public void setAsyncCompletions(boolean asyncCompletions) {
      this.asyncCompletions = asyncCompletions;
    }

    public Duration getClaimCoalescing() {
      return claimCoalescing;
    }

    public void setClaimCoalescing(Duration claimCoalescing) {
      this.claimCoalescing = claimCoalescing;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public Duration getDeliveredRetention() {
      return deliveredRetention;
    }

    public void setDeliveredRetention(Duration deliveredRetention) {
      this.deliveredRetention = deliveredRetention;
    }

    public int getPurgeBatchSize() {
      return purgeBatchSize;
    }

    public void setPurgeBatchSize(int purgeBatchSize) {
      this.purgeBatchSize = purgeBatchSize;
    }

    public Duration getShutdownTimeout() {
      return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
    }

    public Retry getRetry() {
      return retry;
    }

    public Map<String, Retry> getTypes() {
      return types;
    }
  }

  /**
   * A retry policy: exponential backoff with jitter, and the attempts after which a row turns dead.
   */
  public static class Retry {
    /**
     * Attempts in all, the first included, before the row turns dead. 1 to 1000. Default 10 under
     * once.outbox.relay.retry; under types, unset takes once.outbox.relay.retry's.
     */
    private Integer maxAttempts;

    /** Delay before the second attempt. At least 1ms. Default 1s under once.outbox.relay.retry. */
    private Duration initialDelay;

    /** Growth of the delay per attempt. 1.0 to 10.0. Default 2.0 under once.outbox.relay.retry. */
    private Double multiplier;

    /** Cap of the delay. At least initial-delay. Default 5m under once.outbox.relay.retry. */
    private Duration maxDelay;

    /**
     * Fraction of each delay drawn at random, so retries of rows that failed together spread out.
     * 0.0 to 1.0. Default 0.5 under once.outbox.relay.retry.
     */
    private Double jitter;

    /**
     * Under types only: how long this type's handler may run; unset takes
     * once.outbox.relay.handler-timeout. 10ms to 24h.
     */
    private Duration handlerTimeout;

    static Retry defaults() {
      RetryPolicy d = RetryPolicy.DEFAULT;
      Retry r = new Retry();
      r.maxAttempts = d.maxAttempts();
      r.initialDelay = d.initialDelay();
      r.multiplier = d.multiplier();
      r.maxDelay = d.maxDelay();
      r.jitter = d.jitter();
      return r;
    }

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public Duration getHandlerTimeout() {
      return handlerTimeout;
    }

    public void setHandlerTimeout(Duration handlerTimeout) {
      this.handlerTimeout = handlerTimeout;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getInitialDelay() {
      return initialDelay;
    }

    public void setInitialDelay(Duration initialDelay) {
      this.initialDelay = initialDelay;
    }

    public Double getMultiplier() {
      return multiplier;
    }

    public void setMultiplier(Double multiplier) {
      this.multiplier = multiplier;
    }

    public Duration getMaxDelay() {
      return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    public Double getJitter() {
      return jitter;
    }

    public void setJitter(Double jitter) {
      this.jitter = jitter;
    }
  }

  /** The inbox of event consumers. */
  public static class Inbox {
    /**
     * How long a consumer's record of a message is kept. A message redelivered after its record was
     * purged is applied again, so this must be longer than the longest retry span of every retry
     * policy, plus the time an operator may take to requeue a dead row.
     */
    private Duration retention = Duration.ofDays(7);

    private final InboxPurge purge = new InboxPurge();

    public Duration getRetention() {
      return retention;
    }

    public void setRetention(Duration retention) {
      this.retention = retention;
    }

    public InboxPurge getPurge() {
      return purge;
    }
  }

  /** The background purge of inbox records older than the retention. */
  public static class InboxPurge {
    /** Whether old inbox records are purged in the background. */
    private boolean enabled = true;

    /** Time between two purge runs. */
    private Duration interval = Duration.ofMinutes(5);

    /** Records deleted per statement (and per transaction) by the purge. */
    private int batchSize = 1000;

    /**
     * Longest a purge run goes on while its batches come back full (it is behind); the next run
     * then starts after a pause of a second instead of the interval.
     */
    private Duration maxRunTime = Duration.ofSeconds(10);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public int getBatchSize() {
      return batchSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }

    public Duration getMaxRunTime() {
      return maxRunTime;
    }

    public void setMaxRunTime(Duration maxRunTime) {
      this.maxRunTime = maxRunTime;
    }
  }
}
