package dev.once.outbox;

import java.util.concurrent.atomic.LongAdder;

/** The relay's counters behind {@link RelayStats}. Thread-safe. */
final class RelayCounters {
  final LongAdder claims = new LongAdder();
  final LongAdder claimedRows = new LongAdder();
  final LongAdder commits = new LongAdder();
  final LongAdder joined = new LongAdder();
  final LongAdder delivered = new LongAdder();
  final LongAdder timedOut = new LongAdder();
  final LongAdder busyNanos = new LongAdder();
  final LongAdder batches = new LongAdder();
  final LongAdder batchedRows = new LongAdder();
  final LongAdder completions = new LongAdder();
  final LongAdder completedRows = new LongAdder();

  /** One statement completed {@code rows} rows. */
  void completed(int rows) {
    completions.increment();
    completedRows.add(rows);
  }
}
