package dev.once.spring.metrics;

import dev.once.outbox.OutboxRelay;
import dev.once.outbox.RelayStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The relay's own counters ({@link OutboxRelay#stats()}) as meters, read on a scrape from memory
 * (no database access):
 *
 * <ul>
 *   <li>{@value #CLAIMS} and {@value #CLAIMED_ROWS}: non-empty claims and the rows they returned;
 *       their ratio is the rows per claim (many small claims mean a relay woken one commit at a
 *       time);
 *   <li>{@value #COMMITS}: transactions the relay committed itself (claims, heartbeats, outcomes
 *       recorded on their own, purges), and {@value #JOINED}: rows completed in their handler's
 *       transaction; ({@value #COMMITS} + {@value #JOINED}) / {@value #DELIVERED} is the commits
 *       per delivered row for handlers that join;
 *   <li>{@value #BUSY}: seconds workers spent on rows; its rate divided by {@value #WORKERS} is the
 *       share of time the workers were busy (near 1: add workers or speed the handlers up);
 *   <li>{@value #TIMED_OUT}: attempts cut off at their handler time-out;
 *   <li>{@value #BATCHES} and {@value #BATCHED_ROWS}: calls of batch handlers and the rows they
 *       took (rows per batch); {@value #COMPLETIONS} and {@value #COMPLETED_ROWS}: statements that
 *       completed rows, the relay's own and those joined to handlers' transactions, and the rows
 *       they completed (rows per completion);
 *   <li>{@value #BUSY_WORKERS}, {@value #WORKERS} and {@value #RUNNING} (1 while the coordinator
 *       runs).
 * </ul>
 */
final class RelayMeters {
  public static final String CLAIMS = "once.outbox.relay.claims";
  public static final String CLAIMED_ROWS = "once.outbox.relay.claimed.rows";
  public static final String COMMITS = "once.outbox.relay.commits";
  public static final String JOINED = "once.outbox.relay.joined.completions";
  public static final String DELIVERED = "once.outbox.relay.delivered";
  public static final String TIMED_OUT = "once.outbox.relay.timed.out";
  public static final String BUSY = "once.outbox.relay.busy";
  public static final String BUSY_WORKERS = "once.outbox.relay.busy.workers";
  public static final String WORKERS = "once.outbox.relay.workers";
  public static final String RUNNING = "once.outbox.relay.running";
  public static final String BATCHES = "once.outbox.relay.batches";
  public static final String BATCHED_ROWS = "once.outbox.relay.batched.rows";
  public static final String COMPLETIONS = "once.outbox.relay.completions";
  public static final String COMPLETED_ROWS = "once.outbox.relay.completed.rows";

  /** Registers the meters of {@code relay} on {@code registry}; none if it is {@code null}. */
  public RelayMeters(OutboxRelay relay, MeterRegistry registry) {
    if (registry == null) {
      return;
    }
    counter(registry, relay, CLAIMS, "Claims that returned rows", s -> s.claims());
    counter(registry, relay, CLAIMED_ROWS, "Rows returned by claims", s -> s.claimedRows());
    counter(registry, relay, COMMITS, "Transactions the relay committed itself", s -> s.commits());
    counter(
        registry,
        relay,
        JOINED,
        "Rows completed in their handler's transaction",
        s -> s.joinedCompletions());
    counter(registry, relay, DELIVERED, "Rows delivered by this relay", s -> s.delivered());
    counter(registry, relay, TIMED_OUT, "Attempts cut off at their time-out", s -> s.timedOut());
    counter(registry, relay, BATCHES, "Calls of batch handlers", s -> s.batches());
    counter(registry, relay, BATCHED_ROWS, "Rows batch handlers took", s -> s.batchedRows());
    counter(registry, relay, COMPLETIONS, "Statements that completed rows", s -> s.completions());
    counter(
        registry,
        relay,
        COMPLETED_ROWS,
        "Rows completion statements completed",
        s -> s.completedRows());
    FunctionCounter.builder(BUSY, relay, r -> r.stats().busyTime().toNanos() / 1_000_000_000.0)
        .description("Time workers spent handling rows")
        .baseUnit("seconds")
        .register(registry);
    gauge(registry, relay, BUSY_WORKERS, "Workers handling a row now", s -> s.busyWorkers());
    gauge(registry, relay, WORKERS, "Configured workers", s -> s.workers());
    gauge(registry, relay, RUNNING, "1 while the coordinator runs", s -> s.running() ? 1 : 0);
  }

  private static void counter(
      MeterRegistry registry,
      OutboxRelay relay,
      String name,
      String description,
      ToDoubleFunction<RelayStats> value) {
    FunctionCounter.builder(name, relay, r -> value.applyAsDouble(r.stats()))
        .description(description)
        .register(registry);
  }

  private static void gauge(
      MeterRegistry registry,
      OutboxRelay relay,
      String name,
      String description,
      ToDoubleFunction<RelayStats> value) {
    Gauge.builder(name, relay, r -> value.applyAsDouble(r.stats()))
        .description(description)
        .register(registry);
  }
}
