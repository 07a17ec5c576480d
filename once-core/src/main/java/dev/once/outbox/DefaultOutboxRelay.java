package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay: one coordinator thread claims due rows and hands them to worker threads, at most
 * {@code workers} tasks at a time; a task is one row, or up to {@code handlerBatchSize} rows of one
 * type whose handler is a {@link BatchMessageHandler}. It claims at most as many rows as the free
 * workers can take (one each, or a batch each when batch handlers are registered); rows that wait
 * for a worker are in the heartbeat from the claim on, so their lease holds. Between claims it
 * waits for {@link #wakeUp()}, for a worker to finish a row (which may have made the next row of
 * its aggregate due), or for the poll interval; wake-ups that come within {@code claimCoalescing}
 * of the last claim are folded into one claim. Every so often (once per poll interval, at least a
 * second apart, by the relay's clock) it also does the {@link Housekeeping}: one purge batch of
 * finished rows, the release of rows a resume left marked paused, and the archive's partitions;
 * while purge batches come back full it purges again on every turn, after its claim, so a large
 * purge never holds deliveries up.
 *
 * <p>A timer thread keeps the claims alive: every third of the lease it extends, in one statement,
 * the lease of every row whose handler is still running (the {@link Heartbeat}), so a short lease
 * bounds how long the rows of a killed process wait, while a long handler call keeps its row as
 * long as its process lives. The same thread cuts off a handler that runs past its type's time-out:
 * it interrupts it, records a retry (or the row's death after its last attempt) and frees its
 * permit at once, so a hung handler never holds a worker; its thread is abandoned to finish on its
 * own, and whatever it answers later is discarded (and fenced by the claim in the database).
 *
 * <p>Thread-safe. The coordinator never dies of a failure: a database failure is logged
 * (throttled), anything else at ERROR; it waits one poll interval and goes on.
 */
final class DefaultOutboxRelay implements OutboxRelay {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

  private final OutboxStore store;
  private final List<String> types;
  private final int workers;
  private final int batchSize;
  private final int handlerBatchSize;
  private final Set<String> batchTypes;
  private final Duration lease;
  private final Duration heartbeat;
  private final Duration pollInterval;
  private final Duration claimCoalescing;
  private final Duration shutdownTimeout;
  private final List<String> pausedAtStart;
  private final Clock clock;
  private final String name;
  private final ThreadFactory threads;
  private final RelayListener listener;
  private final RelayFailures failures;
  private final RelayCounters counters = new RelayCounters();
  private final ClockSkew skew;
  private final Attempts attempts;

  /** Free workers; only the coordinator takes permits, workers and time-outs give them back. */
  private final Semaphore freeWorkers;

  /** At most one pending wake-up: {@link #wakeUp()} never blocks and never piles up permits. */
  private final Semaphore wakeUps = new Semaphore(0);

  /** Rows from their claim until their attempt ends, renewed by the heartbeat. */
  private final Heartbeat flights;

  private final Housekeeping housekeeping;

  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile ExecutorService pool;
  private volatile ScheduledThreadPoolExecutor timer;
  private volatile Thread coordinator;

  // Touched by the coordinator thread only.
  private long lastClaimNanos;
  private long nextSkewCheckNanos;

  DefaultOutboxRelay(OutboxRelay.Builder settings) {
    this.store = settings.store;
    this.types = List.copyOf(settings.handlers.keySet());
    this.workers = settings.workers;
    this.batchSize = settings.batchSize;
    this.handlerBatchSize = settings.handlerBatchSize;
    this.batchTypes =
        settings.handlers.entrySet().stream()
            .filter(handler -> handler.getValue() instanceof BatchMessageHandler)
            .map(Map.Entry::getKey)
            .collect(Collectors.toUnmodifiableSet());
    this.lease = settings.lease;
    this.heartbeat = settings.lease.dividedBy(3);
    this.pollInterval = settings.pollInterval;
    this.claimCoalescing = settings.claimCoalescing;
    this.shutdownTimeout = settings.shutdownTimeout;
    this.pausedAtStart = List.copyOf(settings.pausedAtStart);
    this.clock = settings.clock;
    this.name = settings.name;
    this.threads = settings.threads;
    this.listener = settings.listener;
    this.failures = new RelayFailures(name, clock);
    this.skew = new ClockSkew(name, clock);
    this.attempts = new Attempts(settings, failures, counters, skew);
    this.freeWorkers = new Semaphore(workers);
    this.flights = new Heartbeat(store, lease, counters, failures, name, LOG);
    this.housekeeping = new Housekeeping(settings, counters, LOG);
  }

  // start() and close() are synchronized so that a close racing a start cannot miss its threads.
  @Override
  public List<String> types() {
    return types;
  }

  @Override
  public synchronized void start() {
    if (closed.get()) {
      throw new IllegalStateException("outbox relay " + name + " is closed");
    }
    if (started.get()) {
      return;
    }
    // Before any thread starts: a pause that fails fails the start, and nothing is claimed first.
    for (String type : pausedAtStart) {
      if (store.pause(type, OutboxRelay.Builder.PAUSED_AT_START_BY, "once: paused at start")) {
        LOG.warn("Outbox relay {} paused type {} at start; resume it to deliver it.", name, type);
      }
    }
    housekeeping.prepare();
    started.set(true);
    // Workers are made on demand and reused; the permits bound how many handle rows at once. A
    // thread abandoned by a time-out does not count against them.
    pool = Executors.newCachedThreadPool(daemonThreads(name + "-worker-"));
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(1, daemonThreads(name + "-heartbeat"));
    scheduler.setRemoveOnCancelPolicy(true);
    scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    long period = Math.max(1, heartbeat.toMillis());
    scheduler.scheduleWithFixedDelay(flights::renew, period, period, TimeUnit.MILLISECONDS);
    timer = scheduler;
    Thread thread = daemonThreads(name + "-coordinator").newThread(this::coordinate);
    coordinator = thread;
    thread.start();
    LOG.info(
        "Outbox relay {} started: {} worker(s), types {}, lease {} renewed every {}, poll"
            + " interval {}.",
        name,
        workers,
        types,
        lease,
        heartbeat,
        pollInterval);
  }

  @Override
  public void wakeUp() {
    if (wakeUps.availablePermits() == 0) {
      wakeUps.release();
    }
  }

  @Override
  public int runOnce() {
    UUID claimId = UUID.randomUUID();
    List<OutboxRecord> rows = store.claim(claimId, types, batchSize, lease);
    count(rows.size(), batchSize);
    for (Task task : Task.of(rows, claimId, batchTypes, handlerBatchSize)) {
      attempt(task);
    }
    return rows.size();
  }

  @Override
  public boolean isRunning() {
    Thread thread = coordinator;
    return started.get() && !closed.get() && thread != null && thread.isAlive();
  }

  @Override
  public RelayStats stats() {
    return new RelayStats(
        isRunning(),
        workers,
        workers - freeWorkers.availablePermits(),
        counters.claims.sum(),
        counters.claimedRows.sum(),
        counters.commits.sum(),
        counters.joined.sum(),
        counters.delivered.sum(),
        counters.timedOut.sum(),
        Duration.ofNanos(counters.busyNanos.sum()),
        counters.batches.sum(),
        counters.batchedRows.sum(),
        counters.completions.sum(),
        counters.completedRows.sum());
  }

  @Override
  public synchronized void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closing.countDown();
    wakeUp();
    Thread thread = coordinator;
    ExecutorService workerPool = pool;
    if (thread == null) {
      return;
    }
    long deadline = System.nanoTime() + shutdownTimeout.toNanos();
    try {
      // The coordinator finishes the statement it is in (a claim hands its rows to the pool).
      thread.join(Math.max(1, shutdownTimeout.toMillis()));
      // Rows in flight keep their heartbeat while the shutdown waits for them.
      workerPool.shutdown();
      if (!awaitFlights(deadline)) {
        LOG.warn(
            "Outbox relay {} closed with rows still in flight after {}: interrupting their"
                + " handlers; rows whose outcome is not recorded are claimed again when their"
                + " lease runs out.",
            name,
            shutdownTimeout);
        workerPool.shutdownNow();
      }
    } catch (InterruptedException e) {
      workerPool.shutdownNow();
      Thread.currentThread().interrupt();
    }
    timer.shutdownNow();
    thread.interrupt();
    LOG.info("Outbox relay {} closed.", name);
  }

  /** Waits until every permit is back (abandoned threads hold none), or the deadline passes. */
  private boolean awaitFlights(long deadline) throws InterruptedException {
    long left = deadline - System.nanoTime();
    if (freeWorkers.tryAcquire(workers, Math.max(0, left), TimeUnit.NANOSECONDS)) {
      freeWorkers.release(workers);
      return true;
    }
    return false;
  }

  /** The coordinator's loop: claim, hand out, purge, wait. */
  private void coordinate() {
    nextSkewCheckNanos = System.nanoTime();
    while (closing.getCount() > 0) {
      boolean again;
      measureSkewIfDue();
      try {
        again = claimAndHandOut();
        again |= housekeeping.runIfDue();
      } catch (RuntimeException e) {
        failures.report("claim or purge outbox rows", e);
        backOff();
        continue;
      } catch (Throwable e) {
        // Not a database failure (those are OutboxExceptions): a bug, or the JVM is in trouble.
        // The loop goes on; if the JVM cannot, isRunning() turns false and the health check says
        // so.
        LOG.error(
            "Outbox relay {}: its coordinator failed unexpectedly; it goes on after one poll"
                + " interval.",
            name,
            e);
        backOff();
        continue;
      }
      if (!again) {
        awaitSignal();
      }
    }
  }

  /**
   * Claims as many rows as the free workers can take; {@code true} if there may be more to claim
   * now.
   */
  private boolean claimAndHandOut() {
    int free = freeWorkers.availablePermits();
    if (free == 0 || closing.getCount() == 0) {
      return false; // a worker that finishes wakes us
    }
    int limit =
        (int) Math.min(batchSize, batchTypes.isEmpty() ? free : (long) free * handlerBatchSize);
    UUID claimId = UUID.randomUUID();
    lastClaimNanos = System.nanoTime();
    // Due times and the lease are the database's clock: the claim passes only the lease's length.
    List<OutboxRecord> rows = store.claim(claimId, types, limit, lease);
    count(rows.size(), limit);
    List<Task> tasks = Task.of(rows, claimId, batchTypes, handlerBatchSize);
    // Every row is renewed by the heartbeat from now on, also while it waits for a worker.
    tasks.forEach(task -> flights.board(task.flights));
    for (int i = 0; i < tasks.size(); i++) {
      Task task = tasks.get(i);
      if (!acquireWorker()) {
        // Closing: the rows not handed out keep their lease and are claimed again once it runs out.
        tasks.subList(i, tasks.size()).forEach(this::abandon);
        return false;
      }
      // Before the hand-out, so that the worker's leave() always finds the time-out to cancel: a
      // time-out scheduled after a fast task had finished would stay queued until it fired.
      scheduleTimeout(task);
      try {
        pool.execute(() -> runOnWorker(task));
      } catch (RejectedExecutionException e) {
        // close() gave up waiting for this thread and shut the pool: the rows keep their lease.
        task.leave();
        abandon(task);
        if (task.freePermit()) {
          freeWorkers.release();
        }
      }
    }
    return rows.size() == limit && freeWorkers.availablePermits() > 0;
  }

  /**
   * Takes a worker's permit: at once when one is free (only this thread takes permits, and a claim
   * takes no more rows than the free workers can run, unless rows of single-row types come in one
   * claim with batches); else waits for a worker to finish. {@code false} if the relay is closing.
   */
  private boolean acquireWorker() {
    while (closing.getCount() > 0) {
      try {
        if (freeWorkers.tryAcquire(50, TimeUnit.MILLISECONDS)) {
          return true;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        closing.countDown();
      }
    }
    return false;
  }

  /** A task that is not handed out: its rows leave the heartbeat and keep their lease. */
  private void abandon(Task task) {
    for (Flight flight : task.flights) {
      flight.land();
      flights.leave(flight);
    }
  }

  private void attempt(Task task) {
    if (task.flights.size() == 1) {
      attempts.attempt(task.flights.get(0));
    } else {
      attempts.attemptAll(task.flights);
    }
  }

  private void count(int claimed, int limit) {
    counters.commits.increment();
    if (claimed > 0) {
      counters.claims.increment();
      counters.claimedRows.add(claimed);
      try {
        listener.claimed(claimed, limit);
      } catch (RuntimeException e) {
        LOG.warn("An outbox RelayListener threw; ignored.", e);
      }
    }
  }

  private void scheduleTimeout(Task task) {
    Duration limit = attempts.timeout(task.type());
    try {
      task.timeout(timer.schedule(() -> expire(task), limit.toNanos(), TimeUnit.NANOSECONDS));
    } catch (RejectedExecutionException e) {
      // Closing: the shutdown interrupts what is left.
    }
  }

  private void runOnWorker(Task task) {
    long started = System.nanoTime();
    task.boarded(Thread.currentThread());
    try {
      attempt(task);
    } finally {
      task.leave();
      Thread.interrupted(); // a time-out's interrupt must not reach this thread's next task
      counters.busyNanos.add(System.nanoTime() - started);
      for (Flight flight : task.flights) {
        flights.leave(flight);
        flight.land(); // an attempt that ended without an outcome (a store failure) lands here
      }
      if (task.freePermit()) {
        release(); // else the time-out took the permit, and freed it itself
      }
    }
  }

  /** The task ran past its type's time-out: the rows without an outcome are released. */
  private void expire(Task task) {
    List<Flight> expired = new ArrayList<>(task.flights.size());
    for (Flight flight : task.flights) {
      if (flight.expire()) {
        expired.add(flight);
      }
    }
    if (expired.isEmpty()) {
      return;
    }
    task.interrupt();
    expired.forEach(flights::leave);
    try {
      // Recorded off the timer thread: the compare-and-set may wait for the row's lock.
      pool.execute(
          () -> {
            try {
              expired.forEach(attempts::timedOut);
            } finally {
              if (task.freePermit()) {
                release();
              }
            }
          });
    } catch (RejectedExecutionException e) {
      // Closing: the rows keep their lease and are claimed again once it runs out.
      if (task.freePermit()) {
        release();
      }
    }
  }

  private void release() {
    freeWorkers.release();
    // The row's outcome may have made the next row of its aggregate due; and a worker is free.
    wakeUp();
  }

  /**
   * At start and every {@link ClockSkew#INTERVAL} (a local timer), reads the database's clock and
   * compares it with the relay's ({@link ClockSkew}). On the coordinator, between two claims, so
   * that a slow reading never delays the heartbeat's renewals on the timer thread.
   */
  private void measureSkewIfDue() {
    if (System.nanoTime() - nextSkewCheckNanos < 0) {
      return;
    }
    nextSkewCheckNanos = System.nanoTime() + ClockSkew.INTERVAL.toNanos();
    try {
      skew.measure(store);
    } catch (RuntimeException e) {
      failures.report("read the database's clock", e);
    } catch (Throwable e) {
      LOG.error("Outbox relay {}: its clock check failed unexpectedly.", name, e);
    }
  }

  @Override
  public Duration clockSkew() {
    return skew.skew();
  }

  private void awaitSignal() {
    try {
      if (wakeUps.tryAcquire(pollInterval.toNanos(), TimeUnit.NANOSECONDS)) {
        coalesce();
      }
      wakeUps.drainPermits();
    } catch (InterruptedException e) {
      // close() interrupts only after it stopped waiting for us; the loop condition ends the loop.
      Thread.currentThread().interrupt();
      closing.countDown();
    }
  }

  /**
   * After a wake-up soon after the last claim, waits out the rest of {@code claimCoalescing}, so
   * that the commits of that window share one claim instead of one claim each.
   */
  private void coalesce() throws InterruptedException {
    long left = claimCoalescing.toNanos() - (System.nanoTime() - lastClaimNanos);
    if (left > 0) {
      closing.await(left, TimeUnit.NANOSECONDS);
    }
  }

  /** After a failure, a full poll interval that wake-ups do not cut short; close() does. */
  private void backOff() {
    try {
      closing.await(pollInterval.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closing.countDown();
    }
  }

  /** The configured factory's threads, named and daemons (a virtual thread always is one). */
  private ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = threads.newThread(task);
      thread.setName(prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
      if (!thread.isDaemon()) {
        thread.setDaemon(true);
      }
      return thread;
    };
  }
}
