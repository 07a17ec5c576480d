package dev.once.outbox;

import java.time.Duration;

/**
 * Counters of one relay since it was built, for metrics and benchmarks; a snapshot, cheap to take.
 *
 * @param running whether the coordinator is running (started, not closed, its thread alive)
 * @param workers the configured worker count
 * @param busyWorkers workers handling a row right now
 * @param claims claim statements that returned at least one row
 * @param claimedRows rows those claims returned
 * @param commits transactions the relay committed itself: claims, heartbeats, outcomes recorded on
 *     their own, purges (a handler's own transactions are not counted)
 * @param joinedCompletions rows completed inside their handler's transaction ({@link Completion})
 * @param delivered rows delivered
 * @param timedOut attempts cut off at their handler time-out
 * @param busyTime summed time workers spent on rows (handler and outcome)
 * @param batches calls of a {@link BatchMessageHandler} with more than one row
 * @param batchedRows rows those calls took
 * @param completions statements that completed rows: the relay's own (one per row or one per group
 *     or batch) and those joined to a handler's transaction
 * @param completedRows rows those statements completed
 */
public record RelayStats(
    boolean running,
    int workers,
    int busyWorkers,
    long claims,
    long claimedRows,
    long commits,
    long joinedCompletions,
    long delivered,
    long timedOut,
    Duration busyTime,
    long batches,
    long batchedRows,
    long completions,
    long completedRows) {

  /** The counters without the batch and completion counts (all zero). */
  public RelayStats(
      boolean running,
      int workers,
      int busyWorkers,
      long claims,
      long claimedRows,
      long commits,
      long joinedCompletions,
      long delivered,
      long timedOut,
      Duration busyTime) {
    this(
        running,
        workers,
        busyWorkers,
        claims,
        claimedRows,
        commits,
        joinedCompletions,
        delivered,
        timedOut,
        busyTime,
        0,
        0,
        0,
        0);
  }

  /** Rows per batch handler call, or 0 before the first. */
  public double rowsPerBatch() {
    return batches == 0 ? 0 : (double) batchedRows / batches;
  }

  /** Rows per completion statement, or 0 before the first. */
  public double rowsPerCompletion() {
    return completions == 0 ? 0 : (double) completedRows / completions;
  }

  /** Rows per non-empty claim, or 0 before the first. */
  public double rowsPerClaim() {
    return claims == 0 ? 0 : (double) claimedRows / claims;
  }
}
