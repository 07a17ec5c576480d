package dev.once.outbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The relay's own completions of single rows, committed together: a worker that completes a row
 * queues its request; whichever worker finds no completion running takes every queued request (up
 * to {@code max}) and completes them in one statement ({@link OutboxStore#completeAll}), each row
 * fenced by its own claim, then hands off to the next waiter. Nobody waits behind a lock while a
 * statement runs: the requests that arrive meanwhile gather in the queue and go together in the
 * next one (group commit by flat combining). Under no load a request goes alone at once, as before.
 *
 * <p>A request's answer is the same as its own compare-and-set's: {@code true} if its claim still
 * held the row and it is now completed. A database failure fails every request of that statement
 * with the store's exception. Thread-safe.
 */
final class GroupCompletion {
  private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final OutboxStore store;
  private final boolean keep;
  private final int max;
  private final RelayCounters counters;
  private final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean combining = new AtomicBoolean();

  GroupCompletion(OutboxStore store, boolean keep, int max, RelayCounters counters) {
    this.store = store;
    this.keep = keep;
    this.max = max;
    this.counters = counters;
  }

  /**
   * Completes the row if {@code claimId} still holds it, together with the requests of other
   * workers that arrive meanwhile.
   *
   * @throws OutboxException if the statement that carried it failed
   */
  boolean complete(long id, UUID claimId) {
    Request mine = new Request(id, claimId, Thread.currentThread());
    // A time-out's interrupt must not turn the parking below into a spin; it is kept for after.
    boolean interrupted = Thread.interrupted();
    try {
      return await(mine);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private boolean await(Request mine) {
    queue.add(mine);
    while (!mine.finished()) {
      if (combining.compareAndSet(false, true)) {
        try {
          while (!mine.finished() && !queue.isEmpty()) {
            combine();
          }
        } finally {
          combining.set(false);
        }
        Request next = queue.peek();
        if (next != null) {
          LockSupport.unpark(next.thread); // hand off: it combines what gathered meanwhile
        }
      } else {
        LockSupport.parkNanos(this, PARK_NANOS);
      }
    }
    return mine.result();
  }

  /** Requests waiting for the next statement (for tests). */
  int queued() {
    return queue.size();
  }

  /** One statement for up to {@code max} queued requests, in id order. */
  private void combine() {
    List<Request> batch = new ArrayList<>();
    Request request;
    while (batch.size() < max && (request = queue.poll()) != null) {
      batch.add(request);
    }
    if (batch.isEmpty()) {
      return;
    }
    HeldRows held = HeldRows.of(batch, r -> r.id, r -> r.claimId);
    long[] ids = held.ids();
    UUID[] claims = held.claimIds();
    try {
      Set<Long> done =
          ids.length == 1
              ? (store.complete(ids[0], claims[0], keep) ? Set.of(ids[0]) : Set.of())
              : store.completeAll(ids, claims, keep);
      counters.completed(done.size());
      batch.forEach(r -> r.finish(done.contains(r.id), null));
    } catch (RuntimeException e) {
      batch.forEach(r -> r.finish(false, e));
    } finally {
      counters.commits.increment();
    }
    Thread self = Thread.currentThread();
    for (Request r : batch) {
      if (r.thread != self) {
        LockSupport.unpark(r.thread);
      }
    }
  }

  /** One worker's completion request. */
  private static final class Request {
    final long id;
    final UUID claimId;
    final Thread thread;
    private volatile boolean finished;
    private boolean completed;
    private RuntimeException failure;

    Request(long id, UUID claimId, Thread thread) {
      this.id = id;
      this.claimId = claimId;
      this.thread = thread;
    }

    void finish(boolean completed, RuntimeException failure) {
      this.completed = completed;
      this.failure = failure;
      this.finished = true; // publishes the two fields above
    }

    boolean finished() {
      return finished;
    }

    boolean result() {
      if (failure != null) {
        throw failure;
      }
      return completed;
    }
  }
}
