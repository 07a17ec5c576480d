package dev.once.verify.report;

import dev.once.verify.load.LoadResult;
import dev.once.verify.stats.Goal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The results as Markdown tables (readable as plain text on stdout, rendered in results.md):
 * scenarios, the orders' place-to-reserved times and checks, goals, memory, and loudly any
 * unexpected answer, error or failed check.
 */
public final class TableWriter {
  private TableWriter() {}

  public static String write(BenchReport report) {
    StringBuilder b = new StringBuilder();
    b.append(
        "| scenario | workers | requests/s | p50 | p99 | unexpected | errors | JVM CPU/req |"
            + " PostgreSQL CPU/req | other processes |\n");
    b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (LoadResult r : report.results()) {
      b.append("| ")
          .append(escape(r.title()))
          .append(" | ")
          .append(r.workers())
          .append(" | ")
          .append(Format.perSecond(r.perSecond()))
          .append(" | ")
          .append(Format.millis(r.p50Nanos()))
          .append(" | ")
          .append(Format.millis(r.p99Nanos()))
          .append(" | ")
          .append(r.unexpected() == 0 ? "0" : "**" + r.unexpected() + "**")
          .append(" | ")
          .append(r.errors() == 0 ? "0" : "**" + r.errors() + "**")
          .append(" | ")
          .append(Format.micros(r.jvmCpuMicrosPerOp()))
          .append(" | ")
          .append(Format.micros(r.postgresCpuMicrosPerOp()))
          .append(" | ")
          .append(Format.percent(r.othersCpuShare()))
          .append(" |\n");
    }
    if (!report.orders().isEmpty()) {
      b.append(
          "\n| orders: place → reserved | orders | measured | p50 | p99 | all reserved after |"
              + " rejected | still placed | deadlocks | stock |\n");
      b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
      for (OrdersResult o : report.orders()) {
        b.append("| ")
            .append(escape(o.title()))
            .append(" | ")
            .append(Format.count(o.orders()))
            .append(" | ")
            .append(Format.count(o.measured()))
            .append(" | ")
            .append(o.p50Nanos() < 0 ? "n/a" : Format.millis(o.p50Nanos()))
            .append(" | ")
            .append(o.p99Nanos() < 0 ? "n/a" : Format.millis(o.p99Nanos()))
            .append(" | ")
            .append(o.drainMillis() < 0 ? "**never**" : Format.seconds(o.drainMillis()))
            .append(" | ")
            .append(loud(o.rejected()))
            .append(" | ")
            .append(loud(o.stillPlaced()))
            .append(" | ")
            .append(o.deadlocks() < 0 ? "**n/a**" : loud(o.deadlocks()))
            .append(" | ")
            .append(
                o.stockProblems().isEmpty()
                    ? o.products() + " products add up"
                    : "**" + o.stockProblems().size() + " broken**")
            .append(" |\n");
      }
    }
    b.append("\n| goal | value | goal | verdict |\n| --- | ---: | ---: | --- |\n");
    for (Goal g : report.goals()) {
      b.append("| ")
          .append(escape(g.name()))
          .append(" | ")
          .append(g.valueText())
          .append(" | ")
          .append(g.goalText())
          .append(" | ")
          .append(verdict(g))
          .append(" |\n");
    }
    if (!report.memory().isEmpty()) {
      b.append("\n| shop JVM (-Xmx256m) after load | VmRSS | VmHWM |\n| --- | ---: | ---: |\n");
      for (Map.Entry<String, double[]> e : report.memory().entrySet()) {
        b.append("| ")
            .append(escape(e.getKey()))
            .append(" | ")
            .append(Format.megabytes(e.getValue()[0]))
            .append(" | ")
            .append(Format.megabytes(e.getValue()[1]))
            .append(" |\n");
      }
    }
    List<String> problems = problems(report);
    if (!problems.isEmpty()) {
      b.append("\n");
      for (String p : problems) {
        b.append("**").append(p).append("**\n");
      }
    }
    return b.toString();
  }

  /**
   * One line per scenario with unexpected answers or errors, with the first one seen, then one per
   * failed orders check.
   */
  public static List<String> problems(BenchReport report) {
    List<String> problems = new ArrayList<>();
    for (LoadResult r : report.results()) {
      if (!r.clean()) {
        problems.add(
            "UNEXPECTED in "
                + r.id()
                + ": "
                + r.unexpected()
                + " unexpected answers, "
                + r.errors()
                + " errors; first: "
                + r.firstProblem());
      }
    }
    for (OrdersResult o : report.orders()) {
      for (String p : o.problems()) {
        problems.add("FAILED in " + o.title() + ": " + p);
      }
    }
    return problems;
  }

  private static String loud(long count) {
    return count == 0 ? "0" : "**" + Format.count(count) + "**";
  }

  private static String verdict(Goal g) {
    switch (g.verdict()) {
      case PASS:
        return "pass";
      case MISS:
        return "**miss**";
      default:
        return "not measured";
    }
  }

  private static String escape(String text) {
    return text.replace("|", "\\|");
  }
}
