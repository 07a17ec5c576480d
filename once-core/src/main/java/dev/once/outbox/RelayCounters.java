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
}
