package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import java.util.List;

/**
 * Phase {@code archive} (issue 40): what the archive costs the relay. The relay alone drains {@code
 * --rows} pre-filled {@code provider.charge} rows with finished rows deleted by the statement that
 * completes them (the shop's setting), then on the shop restarted with {@code
 * once.outbox.archive.enabled=true}, where that statement moves them to the archive; twice each,
 * alternated (delete, archive, delete, archive) so that drift of the shared machine falls on both.
 * The measure is the ratio of the archive's best rate to the delete's.
 */
final class ArchivePhase {
  static final String ARCHIVE_ON = "--once.outbox.archive.enabled=true";

  private final RelayRun run;

  ArchivePhase(RelayRun run) {
    this.run = run;
  }

  void run() throws Exception {
    int rows = run.options.rows();
    double[] delete = new double[2];
    double[] archive = new double[2];
    for (int round = 0; round < 2; round++) {
      run.closeShop();
      run.startShop(true);
      delete[round] = rate(f("archive-d%d-", round), rows);
      run.closeShop();
      run.startShop(true, List.of(ARCHIVE_ON));
      archive[round] = rate(f("archive-a%d-", round), rows);
    }
    long archived = run.sql.number("SELECT count(*) FROM once.outbox_archive");
    run.closeShop();
    run.startShop(true);
    double bestDelete = Math.max(delete[0], delete[1]);
    double bestArchive = Math.max(archive[0], archive[1]);
    run.table.goal(
        f("relay alone, %,d provider.charge rows: archive on completion / delete", rows),
        f(
            "%.2f (archive %.0f and %.0f rows/s, delete %.0f and %.0f rows/s; %,d rows archived)",
            bestArchive / bestDelete, archive[0], archive[1], delete[0], delete[1], archived),
        "reported",
        archived >= 2L * rows);
  }

  private double rate(String tag, int rows) throws Exception {
    double[] drained = RelayPhase.drain(run, tag, rows);
    double rate = drained[0] / drained[1];
    run.progress(
        f("  %s: %.0f rows/s (%,.0f settled in %.1f s)", tag, rate, drained[0], drained[1]));
    return rate;
  }
}
