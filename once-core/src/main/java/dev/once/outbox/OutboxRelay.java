package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;

/**
 * Delivers committed outbox rows to their {@link MessageHandler}s: at least once per row, never for
 * a row whose transaction did not commit (G3).
 *
 * <ul>
 *   <li>Rows are claimed in short transactions, in bounded batches, under a short lease that a
 *       heartbeat renews every third of it while the handler runs: the rows of a process that died
 *       are claimed again within one lease, while a live process keeps its rows however long their
 *       handlers take (up to their time-out). The handler runs with no transaction open; the
 *       outcome is recorded by a compare-and-set on the row's id and claim, so a relay that lost
 *       its claim (paused past its lease, or timed out) cannot overwrite the new holder's.
 *   <li>A handler may complete its row inside the transaction in which it records its own outcome
 *       ({@link MessageHandler#handle(OutboxRecord, Completion)}): one commit per row.
 *   <li>A {@link BatchMessageHandler} takes a claim's rows of its type in one call (up to {@code
 *       handlerBatchSize}); the rows it answers done are completed in one statement, each fenced by
 *       its own claim, or by the handler in its own transaction ({@link BatchCompletion}): one
 *       commit per batch. A batch that fails as a whole is handled again row by row, so a poison
 *       row is retried, counted and buried alone.
 *   <li>A handler that runs past its type's time-out is interrupted and its row released for a
 *       retry (or dead after its last attempt); its worker is free at once.
 *   <li>A relay claims only rows of the types it has handlers for, so several services may share
 *       the table; but an aggregate's order spans types: a row waits for the earlier rows of its
 *       aggregate whatever their type.
 *   <li>Rows of one aggregate are handled one at a time, in commit order; a failed row blocks the
 *       later rows of its aggregate until it is delivered (after retries, or after an operator
 *       requeues it once dead). Rows of different aggregates run in parallel on {@code workers}
 *       threads.
 *   <li>Several relays, threads or processes, may run on one database: no row is handled by two of
 *       them at the same time while its lease holds.
 *   <li>It polls every {@code pollInterval} and wakes at once on {@link #wakeUp()} (call it after a
 *       transaction that appended rows commits) and whenever a row completes.
 *   <li>Delivered rows are deleted in batches once older than {@code deliveredRetention}.
 * </ul>
 *
 * Thread-safe.
 */
public interface OutboxRelay extends AutoCloseable {

  /** Starts the polling and worker threads. Idempotent. */
  void start();

  /** Asks the relay to claim due rows now instead of at the next poll. Cheap; never blocks. */
  void wakeUp();

  /**
   * Claims one batch and handles it on the calling thread, then returns how many rows it handled.
   * For tests and tools; works whether or not the relay was started.
   *
   * @throws OutboxException if the claim fails; failures recording an outcome are logged, and the
   *     row is claimed again once its lease runs out
   */
  int runOnce();

  /**
   * Whether the relay was started, is not closed, and its coordinator thread is alive: what a
   * health check reports.
   */
  boolean isRunning();

  /** The message types this relay handles, in the order their handlers were registered. */
  default List<String> types() {
    return List.of();
  }

  /** Counters since the relay was built. */
  RelayStats stats();

  /**
   * The database's clock minus this relay's, measured at start and every minute; zero before the
   * first reading. Nothing the relay decides depends on it (see {@link Builder#clock}); a large
   * value is logged as a warning.
   */
  default Duration clockSkew() {
    return Duration.ZERO;
  }

  /**
   * Stops claiming, waits up to {@code shutdownTimeout} for rows in flight, then returns; rows
   * still in flight keep their lease and are claimed again once it runs out. Idempotent.
   */
  @Override
  void close();

  /** A builder over {@code store}. */
  static Builder builder(OutboxStore store) {
    return new Builder(store);
  }

  /** Builds an {@link OutboxRelay}; every value is validated by {@link #build()}. */
  final class Builder {
    /** Who {@link #pausedAtStart} names as the author of its pauses. */
    public static final String PAUSED_AT_START_BY = "paused at start";

    final OutboxStore store;
    final Map<String, MessageHandler> handlers = new LinkedHashMap<>();
    final Map<String, RetryPolicy> policies = new LinkedHashMap<>();
    RetryPolicy defaultRetryPolicy = RetryPolicy.DEFAULT;
    int workers = RelayLimits.DEFAULT_WORKERS;
    int batchSize = RelayLimits.DEFAULT_BATCH_SIZE;
    int handlerBatchSize = RelayLimits.DEFAULT_HANDLER_BATCH_SIZE;
    Duration lease = RelayLimits.duration(RelayLimits.DEFAULT_LEASE);
    Duration handlerTimeout = RelayLimits.duration(RelayLimits.DEFAULT_HANDLER_TIMEOUT);
    final Map<String, Duration> timeouts = new LinkedHashMap<>();
    Duration pollInterval = RelayLimits.duration(RelayLimits.DEFAULT_POLL_INTERVAL);
    Duration claimCoalescing = RelayLimits.duration(RelayLimits.DEFAULT_CLAIM_COALESCING);
    boolean asyncCompletions;
    Duration deliveredRetention = RelayLimits.duration(RelayLimits.DEFAULT_DELIVERED_RETENTION);
    int purgeBatchSize = RelayLimits.DEFAULT_PURGE_BATCH_SIZE;
    Duration shutdownTimeout = RelayLimits.duration(RelayLimits.DEFAULT_SHUTDOWN_TIMEOUT);
    final Set<String> pausedAtStart = new LinkedHashSet<>();
    Clock clock = Clock.systemUTC();
    RelayListener listener = RelayListener.NONE;
    String name = "once-relay";
    ThreadFactory threads = Thread::new;

    private Builder(OutboxStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Handles rows of {@code type} with {@code handler}, retried by the default policy. */
    public Builder handler(String type, MessageHandler handler) {
      return handler(type, handler, null);
    }

    /** Handles rows of {@code type} with {@code handler}, retried by {@code policy}. */
    public Builder handler(String type, MessageHandler handler, RetryPolicy policy) {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(handler, "handler");
      if (handlers.putIfAbsent(type, handler) != null) {
        throw new IllegalArgumentException("a handler for type " + type + " is already registered");
      }
      if (policy != null) {
        policies.put(type, policy);
      }
      return this;
    }

    /** The retry policy of types registered without one. Default {@link RetryPolicy#DEFAULT}. */
    public Builder defaultRetryPolicy(RetryPolicy policy) {
      this.defaultRetryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Threads that run handlers, 1 to 1000. Default 8. */
    public Builder workers(int workers) {
      this.workers = workers;
      return this;
    }

    /** Most rows claimed by one statement, 1 to 10000. Default 100. */
    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    /**
     * Most rows of one type handed to a {@link BatchMessageHandler} in one call, 1 to 10000. A
     * relay with batch handlers claims up to this many rows per free worker (at most {@link
     * #batchSize(int)} per claim). Default 50.
     */
    public Builder handlerBatchSize(int handlerBatchSize) {
      this.handlerBatchSize = handlerBatchSize;
      return this;
    }

    /**
     * How long a claim holds a row without a heartbeat. The relay renews it every third of it while
     * the row's handler runs, so it need not cover the longest handler call (the handler time-out
     * does); it bounds how long the rows of a process that died wait before another relay takes
     * them, and how long a database outage or a paused process may stop the heartbeat before its
     * rows are taken over. 1 s to 24 h. Default 10 s.
     */
    public Builder lease(Duration lease) {
      this.lease = lease;
      return this;
    }

    /**
     * How long a handler may run before the relay interrupts it and releases its row for a retry
     * (dead after the type's last attempt), for types without a time-out of their own. 10 ms to 24
     * h. Default 30 s.
     */
    public Builder handlerTimeout(Duration timeout) {
      this.handlerTimeout = timeout;
      return this;
    }

    /** The handler time-out of {@code type}, over {@link #handlerTimeout(Duration)}. */
    public Builder handlerTimeout(String type, Duration timeout) {
      timeouts.put(Objects.requireNonNull(type, "type"), timeout);
      return this;
    }

    /**
     * Whether a handler's transaction that completes its row ({@link Completion#completeIn})
     * commits without waiting for the WAL flush ({@code synchronous_commit = off} for that
     * transaction only). Default false: the transaction keeps the server's durability.
     *
     * <p>Safe when everything the handler's transaction writes is re-derived by a redelivery, as
     * the relay's contract asks of handlers (a settlement records the answer of an idempotent
     * provider; an inbox consumer's effect comes with its inbox record): a crash can lose only the
     * last such transactions, the row's completion with them, so the row is delivered again once
     * its lease runs out and writes the same again. PostgreSQL flushes the WAL in order, so any
     * later durable commit (a request that read the settled state) flushes it first: nothing
     * acknowledged can depend on a lost one. What can be lost for a moment is what a read showed (a
     * payment seen settled, pending again after the crash until its row is redelivered). Saves one
     * WAL flush per delivered row.
     */
    public Builder asyncCompletions(boolean asyncCompletions) {
      this.asyncCompletions = asyncCompletions;
      return this;
    }

    /**
     * How long the relay, woken soon after a claim, waits before the next one, so that the commits
     * of that window share one claim. 0 to 1 s. Default 5 ms.
     */
    public Builder claimCoalescing(Duration claimCoalescing) {
      this.claimCoalescing = claimCoalescing;
      return this;
    }

    /** Time between polls when nothing wakes the relay, 10 ms to 1 h. Default 1 s. */
    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
      return this;
    }

    /**
     * How long delivered rows are kept before the purge deletes them, 0 to 365 d. Default 1 min.
     * The relay purges one batch per poll interval (at most one a second, by its clock), and again
     * on its next turn after its claim while batches come back full. With 0, a row is deleted by
     * the statement that completes it, and the purge only removes discarded rows.
     */
    public Builder deliveredRetention(Duration deliveredRetention) {
      this.deliveredRetention = deliveredRetention;
      return this;
    }

    /**
     * Types paused when the relay starts ({@link OutboxAdmin#pause}, by {@value
     * #PAUSED_AT_START_BY}): a type that must not be delivered from this deployment on, until an
     * operator resumes it. A type paused already keeps its first pause. Each 1 to 200 characters.
     */
    public Builder pausedAtStart(Collection<String> types) {
      Objects.requireNonNull(types, "types").forEach(type -> pausedAtStart.add(type));
      return this;
    }

    /** Most delivered rows one purge statement deletes, 1 to 100000. Default 1000. */
    public Builder purgeBatchSize(int purgeBatchSize) {
      this.purgeBatchSize = purgeBatchSize;
      return this;
    }

    /** How long {@link #close()} waits for rows in flight, 0 to 1 h. Default 10 s. */
    public Builder shutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
      return this;
    }

    /**
     * The relay's local clock: the cadence of the delivered-row purge, the throttling of its
     * warnings and (corrected by the measured skew to the database's clock) delivery latencies. Due
     * times, leases, backoff and purge cut-offs are never read from it: they are the database's
     * clock, one for every relay. Default UTC system clock.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Hooks for metrics and logs. Default none. */
    public Builder listener(RelayListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Where the relay's threads come from: its coordinator, its heartbeat timer and its workers.
     * The relay names each thread it gets ({@link #name(String)} and a suffix) and makes it a
     * daemon. Default: a new platform thread each time. Pass a virtual-thread factory on Java 21 or
     * later ({@code Thread.ofVirtual().factory()}) to run the workers on virtual threads: the relay
     * holds no monitor across a database call or a handler, so a worker waiting on either never
     * pins its carrier.
     */
    public Builder threadFactory(ThreadFactory threads) {
      this.threads = Objects.requireNonNull(threads, "threads");
      return this;
    }

    /** Prefix of the relay's thread names. Default {@code once-relay}. */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * The relay, not yet started.
     *
     * @throws IllegalArgumentException naming the first bad setting, or if no handler is registered
     */
    public OutboxRelay build() {
      RelaySettings.validate(this);
      return new DefaultOutboxRelay(this);
    }
  }
}
