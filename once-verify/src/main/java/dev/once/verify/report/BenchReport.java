package dev.once.verify.report;

import dev.once.verify.load.LoadResult;
import dev.once.verify.stats.Goal;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code bench} run reports.
 *
 * @param machine facts about the run (cores, Java, PostgreSQL, date, flags), in display order
 * @param results the scenarios that ran, in order
 * @param goals ratios and sizes against their goals
 * @param memory resident memory of the shop JVMs after load, by label (e.g. {@code "Once on"}),
 *     values {@code [VmRSS, VmHWM]} in MB
 * @param notes remarks printed under the table
 * @param orders what the orders scenario found in the database, one per round it ran
 */
public record BenchReport(
    Map<String, String> machine,
    List<LoadResult> results,
    List<Goal> goals,
    Map<String, double[]> memory,
    List<String> notes,
    List<OrdersResult> orders) {

  /** A report without the orders scenario. */
  public BenchReport(
      Map<String, String> machine,
      List<LoadResult> results,
      List<Goal> goals,
      Map<String, double[]> memory,
      List<String> notes) {
    this(machine, results, goals, memory, notes, List.of());
  }

  /** True if every answer was the expected one and every orders check passed. */
  public boolean clean() {
    return results.stream().allMatch(LoadResult::clean)
        && orders.stream().allMatch(OrdersResult::clean);
  }
}
