package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.BackgroundLoad;
import java.util.ArrayList;
import java.util.List;

/**
 * Phase {@code purge} (issue 22): first one run of the key purge and one of the inbox purge, each
 * on {@code --purge-rows} expired rows, timed (rows/s, and what one run leaves), executed from
 * once-verify with once-core's purge statements at the shop's batch sizes ({@link CorePurges});
 * then a shop process with retentions of 5 s and purges every 5 s under sustained new payments for
 * {@code --purge-seconds}, the sizes of once.idempotency_key and once.inbox sampled every 5 s:
 * "stable" when the last third of the run holds no more rows than the middle third (plus a
 * quarter), "growing" otherwise.
 */
final class PurgePhase {
  private static final String KEYS =
      """
      INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, status_code,
                                        body, created_at, completed_at, expires_at)
      SELECT 'bench-purge', 'k' || g, decode(repeat('00', 32), 'hex'), 'completed', 201,
             '\\x'::bytea, now() - interval '2 days', now() - interval '2 days',
             now() - interval '1 day'
        FROM generate_series(1, ?) g
      """;

  private static final String RECORDS =
      """
      INSERT INTO once.inbox (message_id, consumer, received_at)
      SELECT gen_random_uuid(), 'bench-purge', now() - interval '30 days'
        FROM generate_series(1, ?)
      """;

  private final RelayRun run;

  PurgePhase(RelayRun run) {
    this.run = run;
  }

  private interface Purge {
    int run() throws Exception;
  }

  void run() throws Exception {
    int rows = run.options.purgeRows();
    CorePurges purges = new CorePurges(run.login);
    timedPurge(
        f("key purge, one run on %,d expired keys", rows),
        KEYS,
        purges::keys,
        "once.idempotency_key WHERE client_id = 'bench-purge'",
        "keys",
        f("batch %d, interval 1m", CorePurges.KEY_BATCH));
    timedPurge(
        f("inbox purge, one run on %,d old records", rows),
        RECORDS,
        purges::inbox,
        "once.inbox WHERE consumer = 'bench-purge'",
        "records",
        f("batch %d, interval 5m", CorePurges.INBOX_BATCH));
    sustained();
  }

  /**
   * Writes {@code --purge-rows} expired rows with {@code insert}, times one run of {@code purge},
   * and reports what it deleted and what it left ({@code rowsOf}: a table and a filter), which is
   * then deleted.
   */
  private void timedPurge(
      String measure, String insert, Purge purge, String rowsOf, String unit, String settings)
      throws Exception {
    run.sql.update(insert, run.options.purgeRows());
    long t = System.nanoTime();
    int deleted = purge.run();
    double seconds = (System.nanoTime() - t) / 1e9;
    long left = run.sql.number("SELECT count(*) FROM " + rowsOf);
    run.sql.update("DELETE FROM " + rowsOf);
    run.table.reported(
        measure + " (once-core's purge statements run from once-verify at the shop's batch size)",
        f(
            "deleted %,d in %.1f s (%,.0f %s/s), %,d left for the next run (%s)",
            deleted, seconds, deleted / seconds, unit, left, settings));
    run.progress(f("  %s: deleted %,d in %.1f s, %,d left", unit, deleted, seconds, left));
  }

  /** Sustained writes with short retentions, on a shop process: the tables must stop growing. */
  private void sustained() throws Exception {
    run.closeShop();
    run.startShop(true, shortRetentions());
    List<long[]> samples = new ArrayList<>();
    double rate;
    try (BackgroundLoad load = run.payments()) {
      long t0 = System.nanoTime();
      long end = t0 + run.options.purgeSeconds() * 1_000_000_000L;
      while (System.nanoTime() < end) {
        Thread.sleep(5_000); // the sampling period; a benchmark, not a test
        samples.add(
            new long[] {
              Math.round((System.nanoTime() - t0) / 1e9),
              run.sql.number("SELECT count(*) FROM once.idempotency_key"),
              run.sql.number("SELECT count(*) FROM once.inbox")
            });
      }
      rate = load.counts().created() / ((System.nanoTime() - t0) / 1e9);
    }
    StringBuilder series = new StringBuilder();
    for (long[] s : samples) {
      series.append(f("%ds: %,d keys / %,d inbox; ", s[0], s[1], s[2]));
    }
    int third = samples.size() / 3;
    boolean stable =
        third > 0
            && stable(
                samples.subList(third, 2 * third), samples.subList(2 * third, samples.size()));
    int batch = run.options.purgeBatchSize();
    run.table.goal(
        f(
            "purges keep pace: sizes under %,.0f payments/s for %d s, retentions 5 s, batch %s",
            rate, run.options.purgeSeconds(), batch > 0 ? batch : "the shop's"),
        (stable ? "stable" : "growing") + " (" + series.toString().strip() + ")",
        "stable",
        stable);
  }

  private List<String> shortRetentions() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--once.idempotency.retention=5s",
                "--once.idempotency.purge.interval=5s",
                "--once.inbox.retention=5s",
                "--once.inbox.purge.interval=5s",
                // The inbox's retention must outlast every retry span: one attempt, no span.
                "--once.outbox.relay.retry.max-attempts=1",
                "--once.outbox.relay.types[provider.charge].max-attempts=1",
                "--once.outbox.relay.types[provider.refund].max-attempts=1"));
    int batch = run.options.purgeBatchSize();
    if (batch > 0) {
      args.add("--once.idempotency.purge.batch-size=" + batch);
      args.add("--once.inbox.purge.batch-size=" + batch);
    }
    return args;
  }

  /**
   * Whether neither table holds more rows in {@code last} than in {@code middle}, plus a quarter.
   */
  static boolean stable(List<long[]> middle, List<long[]> last) {
    for (int column = 1; column <= 2; column++) {
      long before = 0;
      for (long[] s : middle) {
        before = Math.max(before, s[column]);
      }
      long after = 0;
      for (long[] s : last) {
        after = Math.max(after, s[column]);
      }
      if (after > before + before / 4 + 100) {
        return false;
      }
    }
    return true;
  }
}
