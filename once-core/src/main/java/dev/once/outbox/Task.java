package dev.once.outbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one worker does in one handler call: one row, or a batch of rows of one type whose handler
 * is a {@link BatchMessageHandler}. It holds one worker permit, freed exactly once ({@link
 * #freePermit()}) by whoever finishes first: the worker, or the task's time-out. Thread-safe.
 */
final class Task {
  final List<Flight> flights;
  private final AtomicBoolean permitHeld = new AtomicBoolean(true);

  // Guarded by this: the worker's thread while it runs the handler, for the time-out to interrupt.
  private Thread thread;
  private Future<?> timeout;

  Task(List<Flight> flights) {
    this.flights = List.copyOf(flights);
  }

  /** The type of its rows. */
  String type() {
    return flights.get(0).row.type();
  }

  /**
   * The tasks of one claim, in the claim's order: each row alone, but the rows of a type in {@code
   * batchTypes} in batches of at most {@code batchSize}, at the place of the batch's first row.
   */
  static List<Task> of(
      List<OutboxRecord> rows, UUID claimId, Set<String> batchTypes, int batchSize) {
    List<Task> tasks = new ArrayList<>();
    Map<String, List<Flight>> open = new LinkedHashMap<>();
    List<List<Flight>> order = new ArrayList<>();
    for (OutboxRecord row : rows) {
      Flight flight = new Flight(row, claimId);
      if (!batchTypes.contains(row.type())) {
        order.add(List.of(flight));
        continue;
      }
      List<Flight> batch = open.get(row.type());
      if (batch == null || batch.size() == batchSize) {
        batch = new ArrayList<>();
        open.put(row.type(), batch);
        order.add(batch);
      }
      batch.add(flight);
    }
    order.forEach(flights -> tasks.add(new Task(flights)));
    return tasks;
  }

  /** Frees the worker's permit: {@code true} for the one caller that does. */
  boolean freePermit() {
    return permitHeld.compareAndSet(true, false);
  }

  synchronized void boarded(Thread worker) {
    this.thread = worker;
  }

  /** The worker is done with the handler: a later time-out must not interrupt its next task. */
  synchronized void leave() {
    this.thread = null;
    if (timeout != null) {
      timeout.cancel(false);
    }
  }

  synchronized void timeout(Future<?> scheduled) {
    this.timeout = scheduled;
  }

  synchronized void interrupt() {
    if (thread != null) {
      thread.interrupt();
    }
  }
}
