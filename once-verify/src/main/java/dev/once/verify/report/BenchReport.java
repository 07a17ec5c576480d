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
 */
public record BenchReport(
    Map<String, String> machine,
    List<LoadResult> results,
    List<Goal> goals,
    Map<String, double[]> memory,
    List<String> notes) {}
