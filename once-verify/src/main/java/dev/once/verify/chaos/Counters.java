package dev.once.verify.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/** What a chaos run's load and kills counted, for the progress lines and the report. */
final class Counters {
  final AtomicLong requests = new AtomicLong();
  final AtomicLong acks = new AtomicLong();
  final AtomicLong timeouts = new AtomicLong();
  final AtomicLong connectionErrors = new AtomicLong();
  final AtomicLong inUse = new AtomicLong();
  final AtomicLong limited = new AtomicLong();
  final AtomicLong serverErrors = new AtomicLong();

  /** Of those, the ones that are not a 503 (which says: retry, nothing was done). */
  final AtomicLong serverErrorsNot503 = new AtomicLong();

  final AtomicLong kills = new AtomicLong();

  /** The longest time an intent waited for its answer (retries through kills and 409s). */
  final AtomicLong longestWaitMillis = new AtomicLong();

  /** The first few 5xx answers, for the report: a 5xx is retried, but may be a shop bug. */
  final List<String> serverErrorSamples = Collections.synchronizedList(new ArrayList<>());

  /**
   * With {@code --failover}: every attempt as {@code {started, ended, status}} ({@link
   * System#nanoTime()}; status 0 when no answer came), to tell what the clients saw around each
   * failover; empty otherwise.
   */
  final Queue<long[]> attempts = new ConcurrentLinkedQueue<>();

  volatile boolean keepAttempts;

  /** Keeps one attempt if {@link #keepAttempts}. */
  void attempt(long started, int status) {
    if (keepAttempts) {
      attempts.add(new long[] {started, System.nanoTime(), status});
    }
  }

  /** The progress line {@code seconds} into the load. */
  String progress(double seconds) {
    return String.format(
        "  [%5.1fs] requests %d, acknowledged %d, timed out %d, connection errors %d, 409 %d,"
            + " 5xx %d, kills %d",
        seconds,
        requests.get(),
        acks.get(),
        timeouts.get(),
        connectionErrors.get(),
        inUse.get(),
        serverErrors.get(),
        kills.get());
  }
}
