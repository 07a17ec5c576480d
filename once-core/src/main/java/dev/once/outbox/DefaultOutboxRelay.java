package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay: one coordinator thread claims due rows and hands them to a fixed pool of worker
 * threads. It claims at most as many rows as workers are free, so a claimed row never waits in a
 * queue while its lease runs. Between claims it waits for {@link #wakeUp()}, for a worker to finish
 * a row (which may have made the next row of its aggregate due), or for the poll interval. Every so
 * often (once per poll interval, at least a second apart, by the relay's clock) it also purges one
 * batch of delivered rows; while purge batches come back full it purges again on every turn, after
 * its claim, so a large purge never holds deliveries up.
 *
 * <p>Thread-safe. The coordinator never dies of a database failure: it logs (throttled), waits one
 * poll interval and tries again.
 */
final class DefaultOutboxRelay implements OutboxRelay {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);
  private static final Duration LEAST_PURGE_INTERVAL = Duration.ofSeconds(1);

  private final OutboxStore store;
  private final List<String> types;
  private final int workers;
  private final int batchSize;
  private final Duration lease;
  private final Duration pollInterval;
  private final Duration deliveredRetention;
  private final int purgeBatchSize;
  private final Duration shutdownTimeout;
  private final Clock clock;
  private final String name;
  private final RelayFailures failures;
  private final Attempts attempts;

  /** Free worker threads; only the coordinator takes permits, workers give them back. */
  private final Semaphore freeWorkers;

  /** At most one pending wake-up: {@link #wakeUp()} never blocks and never piles up permits. */
  private final Semaphore wakeUps = new Semaphore(0);

  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile ExecutorService pool;
  private volatile Thread coordinator;

  // Touched by the coordinator thread only.
  private Instant nextPurgeAt;
  private boolean purgeMore;

  DefaultOutboxRelay(OutboxRelay.Builder settings) {
    this.store = settings.store;
    this.types = List.copyOf(settings.handlers.keySet());
    this.workers = settings.workers;
    this.batchSize = settings.batchSize;
    this.lease = settings.lease;
    this.pollInterval = settings.pollInterval;
    this.deliveredRetention = settings.deliveredRetention;
    this.purgeBatchSize = settings.purgeBatchSize;
    this.shutdownTimeout = settings.shutdownTimeout;
    this.clock = settings.clock;
    this.name = settings.name;
    this.failures = new RelayFailures(name, clock);
    this.attempts = new Attempts(settings, failures);
    this.freeWorkers = new Semaphore(workers);
  }

  // start() and close() are synchronized so that a close racing a start cannot miss its threads.
  @Override
  public synchronized void start() {
    if (closed.get()) {
      throw new IllegalStateException("outbox relay " + name + " is closed");
    }
    if (!started.compareAndSet(false, true)) {
      return;
    }
    pool = Executors.newFixedThreadPool(workers, daemonThreads(name + "-worker-"));
    Thread thread = daemonThreads(name + "-coordinator").newThread(this::coordinate);
    coordinator = thread;
    thread.start();
    LOG.info(
        "Outbox relay {} started: {} worker(s), types {}, lease {}, poll interval {}.",
        name,
        workers,
        types,
        lease,
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
    Instant now = clock.instant();
    List<OutboxRecord> rows = store.claim(claimId, types, batchSize, now, now.plus(lease));
    for (OutboxRecord row : rows) {
      attempts.attempt(row, claimId);
    }
    return rows.size();
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
      workerPool.shutdown();
      if (!workerPool.awaitTermination(
          Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
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
    thread.interrupt();
    LOG.info("Outbox relay {} closed.", name);
  }

  /** The coordinator's loop: claim, hand out, purge, wait. */
  private void coordinate() {
    nextPurgeAt = clock.instant();
    while (closing.getCount() > 0) {
      boolean again;
      try {
        again = claimAndHandOut();
        again |= purgeIfDue();
      } catch (RuntimeException e) {
        failures.report("claim or purge outbox rows", e);
        backOff();
        continue;
      }
      if (!again) {
        awaitSignal();
      }
    }
  }

  /** Claims as many rows as workers are free; {@code true} if there may be more to claim now. */
  private boolean claimAndHandOut() {
    int free = freeWorkers.availablePermits();
    if (free == 0 || closing.getCount() == 0) {
      return false; // a worker that finishes wakes us
    }
    int limit = Math.min(batchSize, free);
    UUID claimId = UUID.randomUUID();
    Instant now = clock.instant();
    List<OutboxRecord> rows = store.claim(claimId, types, limit, now, now.plus(lease));
    for (OutboxRecord row : rows) {
      freeWorkers.acquireUninterruptibly(); // never waits: only this thread takes permits
      try {
        pool.execute(() -> runOnWorker(row, claimId));
      } catch (RejectedExecutionException e) {
        // close() gave up waiting for this thread and shut the pool: the row keeps its lease.
        freeWorkers.release();
      }
    }
    return rows.size() == limit && freeWorkers.availablePermits() > 0;
  }

  private void runOnWorker(OutboxRecord row, UUID claimId) {
    try {
      attempts.attempt(row, claimId);
    } finally {
      freeWorkers.release();
      // The row's outcome may have made the next row of its aggregate due; and a worker is free.
      wakeUp();
    }
  }

  /** Purges one batch if it is time; {@code true} if the batch was full (more to purge now). */
  private boolean purgeIfDue() {
    Instant now = clock.instant();
    if (!purgeMore && now.isBefore(nextPurgeAt)) {
      return false;
    }
    Duration cadence =
        pollInterval.compareTo(LEAST_PURGE_INTERVAL) < 0 ? LEAST_PURGE_INTERVAL : pollInterval;
    nextPurgeAt = now.plus(cadence);
    purgeMore = false; // stays false if the purge throws: it waits for its next turn
    int purged = store.purgeDelivered(now.minus(deliveredRetention), purgeBatchSize);
    purgeMore = purged == purgeBatchSize;
    return purgeMore;
  }

  private void awaitSignal() {
    try {
      wakeUps.tryAcquire(pollInterval.toNanos(), TimeUnit.NANOSECONDS);
      wakeUps.drainPermits();
    } catch (InterruptedException e) {
      // close() interrupts only after it stopped waiting for us; the loop condition ends the loop.
      Thread.currentThread().interrupt();
      closing.countDown();
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

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread =
          new Thread(task, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
      thread.setDaemon(true);
      return thread;
    };
  }
}
