package dev.once.spring.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One purge run: batches that grow while they come back full, a time budget, and shutdown. */
class PeriodicTaskTest {

  /** A table of {@code rows} rows that each batch deletes from. */
  private static final class Table {
    final AtomicInteger rows;
    final List<Integer> asked = new ArrayList<>();

    Table(int rows) {
      this.rows = new AtomicInteger(rows);
    }

    int delete(int limit) {
      asked.add(limit);
      int deleted = Math.min(limit, rows.get());
      rows.addAndGet(-deleted);
      return deleted;
    }
  }

  @Test
  void fullBatchesDoubleTheNextUpToTenTimesTheBatchSizeAndAShortOneEndsTheRun() {
    Table table = new Table(1_000);

    PeriodicTask.PurgeRun run =
        PeriodicTask.purgeInBatches(10, Duration.ofHours(1), () -> false, table::delete);

    assertThat(run).isEqualTo(new PeriodicTask.PurgeRun(1_000, 13, false));
    assertThat(table.asked).startsWith(10, 20, 40, 80, 100, 100).hasSize(13);
    assertThat(table.rows).hasValue(0);
  }

  @Test
  void batchesNeverGrowPastTenThousandRows() {
    Table table = new Table(100_000);

    PeriodicTask.PurgeRun run =
        PeriodicTask.purgeInBatches(5_000, Duration.ofHours(1), () -> false, table::delete);

    assertThat(run.deleted()).isEqualTo(100_000);
    assertThat(table.asked).startsWith(5_000, 10_000, 10_000);
    assertThat(table.asked.stream().mapToInt(Integer::intValue).max()).hasValue(10_000);
  }

  @Test
  void aRunThatHasUsedItsTimeEndsBehindAfterTheBatchInProgress() {
    Table table = new Table(1_000);

    PeriodicTask.PurgeRun run =
        PeriodicTask.purgeInBatches(10, Duration.ZERO, () -> false, table::delete);

    assertThat(run).isEqualTo(new PeriodicTask.PurgeRun(10, 1, true));
  }

  @Test
  void aRunEndsBehindWhenTheTaskIsStopping() {
    Table table = new Table(1_000);
    AtomicInteger checks = new AtomicInteger();

    PeriodicTask.PurgeRun run =
        PeriodicTask.purgeInBatches(
            10, Duration.ofHours(1), () -> checks.incrementAndGet() >= 2, table::delete);

    assertThat(run).isEqualTo(new PeriodicTask.PurgeRun(30, 2, true));
  }
}
