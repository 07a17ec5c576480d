package dev.once.outbox;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at one claimed row: runs its handler with no connection held, maps the outcome to a
 * compare-and-set on the store, then tells the listener. Never throws: a handler's exception or
 * error is a retry, a lost claim is reported, a database failure leaves the row to its lease (it is
 * claimed again once the lease runs out). The outcome belongs to whoever takes the {@link Flight}
 * first: the worker when the handler returns, or {@link #timedOut} when its time-out fires.
 * Thread-safe; called on worker threads concurrently.
 */
final class Attempts {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

  private final OutboxStore store;
  private final Map<String, MessageHandler> handlers;
  private final Map<String, RetryPolicy> policies;
  private final RetryPolicy defaultPolicy;
  private final Map<String, Duration> timeouts;
  private final Duration defaultTimeout;
  private final boolean keepDelivered;
  private final boolean durable;
  private final ClockSkew skew;
  private final RelayListener listener;
  private final RelayFailures failures;
  private final RelayCounters counters;
  private final GroupCompletion completions;

  Attempts(
      OutboxRelay.Builder settings,
      RelayFailures failures,
      RelayCounters counters,
      ClockSkew skew) {
    this.store = settings.store;
    this.handlers = Map.copyOf(settings.handlers);
    this.policies = Map.copyOf(settings.policies);
    this.defaultPolicy = settings.defaultRetryPolicy;
    this.timeouts = Map.copyOf(settings.timeouts);
    this.defaultTimeout = settings.handlerTimeout;
    this.keepDelivered = !settings.deliveredRetention.isZero();
    this.durable = !settings.asyncCompletions;
    this.skew = skew;
    this.listener = settings.listener;
    this.failures = failures;
    this.counters = counters;
    this.completions =
        new GroupCompletion(
            settings.store, keepDelivered, Math.max(1, settings.handlerBatchSize), counters);
  }

  /** The handler time-out of {@code type}. */
  Duration timeout(String type) {
    return timeouts.getOrDefault(type, defaultTimeout);
  }

  /** Makes the attempt and records its outcome, unless the time-out took it. */
  void attempt(Flight flight) {
    OutboxRecord row = flight.row;
    UUID claimId = flight.claimId;
    try {
      RetryPolicy policy = policy(row);
      if (row.attempt() > policy.maxAttempts()) {
        // Every earlier claim of this row ended without an outcome (the process died or its
        // handler hung past its time-out): calling the handler again could repeat that for ever.
        if (flight.land()) {
          bury(
              row,
              claimId,
              "gave up: "
                  + (row.attempt() - 1)
                  + " attempts ended without an outcome (maxAttempts "
                  + policy.maxAttempts()
                  + ")");
        }
        return;
      }
      RowCompletion completion = new RowCompletion(row, claimId);
      Delivery outcome = call(row, completion);
      if (!flight.land()) {
        LOG.debug("Outbox row {} answered after its handler time-out; discarded.", row.id());
        return;
      }
      record(row, claimId, policy, outcome, completion.joined());
    } catch (RuntimeException e) {
      // The store failed to record the outcome; the row keeps its lease and is tried again.
      failures.report("record the outcome of an outbox row", e);
    }
  }

  /**
   * Makes one attempt at each row of {@code batch} (rows of one type, whose handler is a {@link
   * BatchMessageHandler}) with one call of the handler, and records the outcomes: the rows answered
   * done that the handler did not complete itself in one statement, every other outcome per row. If
   * the batch call fails as a whole, each row is handled alone, in order ({@link
   * BatchMessageHandler}). Rows the time-out took are left to it. Never throws.
   */
  void attemptAll(List<Flight> batch) {
    List<Flight> live = new ArrayList<>(batch.size());
    for (Flight flight : batch) {
      RetryPolicy policy = policy(flight.row);
      if (flight.row.attempt() > policy.maxAttempts()) {
        attempt(flight); // gives up on it, as a single row's attempt does
      } else {
        live.add(flight);
      }
    }
    if (live.size() <= 1) {
      live.forEach(this::attempt);
      return;
    }
    try {
      List<OutboxRecord> rows = new ArrayList<>(live.size());
      live.forEach(flight -> rows.add(flight.row));
      RowsCompletion completion = new RowsCompletion(live);
      counters.batches.increment();
      counters.batchedRows.add(live.size());
      List<Delivery> outcomes = callAll(rows, completion);
      List<Flight> done = new ArrayList<>();
      for (int i = 0; i < live.size(); i++) {
        Flight flight = live.get(i);
        Delivery outcome;
        boolean joined;
        if (outcomes != null) {
          outcome = outcomes.get(i);
          joined = completion.joined(flight.row);
        } else {
          // Alone, with a completion of its own: a batch transaction that joined the row's
          // completion and rolled back does not count.
          Completion alone = completion.of(flight.row);
          outcome = call(flight.row, alone);
          joined = alone.joined();
        }
        if (!flight.land()) {
          LOG.debug(
              "Outbox row {} answered after its handler time-out; discarded.", flight.row.id());
        } else if (outcome instanceof Delivery.Done && !joined) {
          done.add(flight);
        } else {
          recordQuietly(flight, outcome, joined);
        }
      }
      completeAll(done);
    } catch (RuntimeException e) {
      failures.report("record the outcomes of a batch of outbox rows", e);
    }
  }

  /** The batch call; {@code null} if it failed as a whole (then each row is handled alone). */
  private List<Delivery> callAll(List<OutboxRecord> rows, BatchCompletion completion) {
    try {
      BatchMessageHandler handler = (BatchMessageHandler) handlers.get(rows.get(0).type());
      List<Delivery> outcomes = handler.handleAll(rows, completion);
      if (outcomes == null || outcomes.size() != rows.size() || hasNull(outcomes)) {
        LOG.warn(
            "The batch handler of type {} answered {} outcomes for {} rows; the rows are handled"
                + " one at a time.",
            rows.get(0).type(),
            outcomes == null ? "no" : outcomes.size(),
            rows.size());
        return null;
      }
      return outcomes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      List<Delivery> retries = new ArrayList<>(rows.size());
      rows.forEach(
          row ->
              retries.add(
                  Delivery.retry("interrupted: the relay is closing or the handler timed out")));
      return retries;
    } catch (Throwable e) {
      LOG.debug(
          "The batch handler of type {} failed on {} rows ({}); they are handled one at a time.",
          rows.get(0).type(),
          rows.size(),
          e.getClass().getName());
      return null;
    }
  }

  /**
   * Whether {@code outcomes} holds a null ({@code List.of} lists refuse {@code contains(null)}).
   */
  private static boolean hasNull(List<Delivery> outcomes) {
    for (Delivery outcome : outcomes) {
      if (outcome == null) {
        return true;
      }
    }
    return false;
  }

  /** Completes the rows answered done in one statement; a row not completed had lost its claim. */
  private void completeAll(List<Flight> done) {
    if (done.isEmpty()) {
      return;
    }
    if (done.size() == 1) {
      Flight flight = done.get(0);
      recordQuietly(flight, Delivery.done(), false);
      return;
    }
    HeldRows held = HeldRows.of(done);
    Set<Long> completed = store.completeAll(held.ids(), held.claimIds(), keepDelivered);
    counters.commits.increment();
    counters.completed(completed.size());
    for (Flight flight : done) {
      if (completed.contains(flight.row.id())) {
        delivered(flight.row);
      } else {
        claimLost(flight.row);
      }
    }
  }

  /** Records one row's outcome; a store failure is reported and the row left to its lease. */
  private void recordQuietly(Flight flight, Delivery outcome, boolean joined) {
    try {
      record(flight.row, flight.claimId, policy(flight.row), outcome, joined);
    } catch (RuntimeException e) {
      failures.report("record the outcome of an outbox row", e);
    }
  }

  /** The handler of the flight ran past its time-out: the row is released for a retry, or dead. */
  void timedOut(Flight flight) {
    OutboxRecord row = flight.row;
    counters.timedOut.increment();
    Duration limit = timeout(row.type());
    String reason = "the handler timed out after " + limit;
    LOG.warn(
        "Outbox row {} of type {}: the handler ran past its time-out of {} (attempt {}); it was"
            + " interrupted and the row is released.",
        row.id(),
        row.type(),
        limit,
        row.attempt());
    try {
      record(row, flight.claimId, policy(row), Delivery.retry(reason), false);
    } catch (RuntimeException e) {
      failures.report("record the outcome of an outbox row", e);
    }
  }

  private RetryPolicy policy(OutboxRecord row) {
    return policies.getOrDefault(row.type(), defaultPolicy);
  }

  private void record(
      OutboxRecord row, UUID claimId, RetryPolicy policy, Delivery outcome, boolean joined) {
    boolean recorded;
    if (outcome instanceof Delivery.Dead dead) {
      recorded = bury(row, claimId, dead.reason());
    } else if (outcome instanceof Delivery.Retry retry) {
      recorded =
          row.attempt() >= policy.maxAttempts()
              ? bury(row, claimId, "attempt " + row.attempt() + " was the last: " + retry.reason())
              : retryLater(row, claimId, policy, retry.reason());
    } else if (joined) {
      delivered(row);
      return;
    } else {
      recorded = completions.complete(row.id(), claimId);
      if (recorded) {
        delivered(row);
      }
    }
    if (!recorded) {
      if (joined) {
        // The handler completed the row in a transaction that committed, then answered a failure.
        delivered(row);
      } else {
        claimLost(row);
      }
    }
  }

  private Delivery call(OutboxRecord row, Completion completion) {
    try {
      Delivery outcome = handlers.get(row.type()).handle(row, completion);
      return outcome != null ? outcome : Delivery.retry("the handler returned null");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Delivery.retry("interrupted: the relay is closing or the handler timed out");
    } catch (Throwable e) {
      // A handler's RuntimeException or Error must not kill the worker; its message may quote the
      // payload, so only its type is kept.
      return Delivery.retry(e.getClass().getName());
    }
  }

  /**
   * The row's latency: its {@code created_at} is the database's clock, so it is measured against
   * this JVM's clock corrected by the measured skew.
   */
  private void delivered(OutboxRecord row) {
    counters.delivered.increment();
    Duration latency = Duration.between(row.createdAt(), skew.databaseNow());
    notify(() -> listener.delivered(row, latency.isNegative() ? Duration.ZERO : latency));
  }

  /** The backoff is a delay here; the store adds it to the database's clock. */
  private boolean retryLater(OutboxRecord row, UUID claimId, RetryPolicy policy, String reason) {
    Duration delay = policy.delay(row.attempt(), ThreadLocalRandom.current());
    boolean recorded = store.retryLater(row.id(), claimId, delay, reason);
    counters.commits.increment();
    if (recorded) {
      notify(() -> listener.retried(row, reason, skew.databaseNow().plus(delay)));
    }
    return recorded;
  }

  private boolean bury(OutboxRecord row, UUID claimId, String reason) {
    boolean recorded = store.bury(row.id(), claimId, reason);
    counters.commits.increment();
    if (recorded) {
      LOG.warn(
          "Outbox row {} of type {} is dead after {} attempt(s); later rows of its aggregate wait"
              + " until an operator requeues it.",
          row.id(),
          row.type(),
          row.attempt());
      notify(() -> listener.dead(row, reason));
    }
    return recorded;
  }

  private void claimLost(OutboxRecord row) {
    LOG.warn(
        "Outbox row {} of type {} was handled, but its claim had been lost (its lease ran out or"
            + " its handler timed out, and the row was released): the outcome is discarded and"
            + " the row is handled again.",
        row.id(),
        row.type());
    notify(() -> listener.claimLost(row));
  }

  private void notify(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("An outbox RelayListener threw; ignored.", e);
    }
  }

  /**
   * The completion of a batch's rows: each {@link #of(List)} completes its rows in one statement,
   * each fenced by its own claim; all or none (a lost claim throws, and the caller rolls back).
   */
  private final class RowsCompletion implements BatchCompletion {
    private final Map<Long, UUID> claims = new ConcurrentHashMap<>();
    private final Set<Long> joined = ConcurrentHashMap.newKeySet();

    RowsCompletion(List<Flight> flights) {
      flights.forEach(flight -> claims.put(flight.row.id(), flight.claimId));
    }

    @Override
    public Completion of(List<OutboxRecord> rows) {
      List<OutboxRecord> own = List.copyOf(rows);
      for (OutboxRecord row : own) {
        if (!claims.containsKey(row.id())) {
          throw new IllegalArgumentException("outbox row " + row.id() + " is not of this batch");
        }
      }
      return new Completion() {
        private boolean done;

        @Override
        public void completeIn(Connection tx) {
          if (done) {
            throw new IllegalStateException("this completion was already joined");
          }
          if (own.isEmpty()) {
            done = true;
            return;
          }
          HeldRows held = HeldRows.of(own, OutboxRecord::id, row -> claims.get(row.id()));
          long[] ids = held.ids();
          Set<Long> completed = store.completeAll(tx, ids, held.claimIds(), keepDelivered, durable);
          for (long id : ids) {
            if (!completed.contains(id)) {
              throw new ClaimLostException(id);
            }
          }
          done = true;
          for (long id : ids) {
            joined.add(id);
          }
          counters.joined.add(ids.length);
          counters.completed(ids.length);
        }

        @Override
        public boolean joined() {
          return done;
        }
      };
    }

    @Override
    public boolean joined(OutboxRecord row) {
      return joined.contains(row.id());
    }
  }

  /** The completion a handler may join to its transaction; one per attempt. */
  private final class RowCompletion implements Completion {
    private final OutboxRecord row;
    private final UUID claimId;
    private boolean joined;

    RowCompletion(OutboxRecord row, UUID claimId) {
      this.row = row;
      this.claimId = claimId;
    }

    @Override
    public void completeIn(Connection tx) {
      if (joined) {
        throw new IllegalStateException("outbox row " + row.id() + " was already completed");
      }
      if (!store.complete(tx, row.id(), claimId, keepDelivered, durable)) {
        throw new ClaimLostException(row.id());
      }
      joined = true;
      counters.joined.increment();
      counters.completed(1);
    }

    @Override
    public boolean joined() {
      return joined;
    }
  }
}
