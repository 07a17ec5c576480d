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
      line(
          b,
          r.title(),
          r.workers(),
          Format.perSecond(r.perSecond()),
          Format.millis(r.p50Nanos()),
          Format.millis(r.p99Nanos()),
          r.unexpected() == 0 ? "0" : "**" + r.unexpected() + "**",
          r.errors() == 0 ? "0" : "**" + r.errors() + "**",
          Format.micros(r.jvmCpuMicrosPerOp()),
          Format.micros(r.postgresCpuMicrosPerOp()),
          Format.percent(r.othersCpuShare()));
    }
    if (!report.orders().isEmpty()) {
      b.append(
          "\n| orders: place → reserved | orders | measured | p50 | p99 | all reserved after |"
              + " rejected | still placed | deadlocks | stock |\n");
      b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
      for (OrdersResult o : report.orders()) {
        line(
            b,
            o.title(),
            Format.count(o.orders()),
            Format.count(o.measured()),
            o.p50Nanos() < 0 ? "n/a" : Format.millis(o.p50Nanos()),
            o.p99Nanos() < 0 ? "n/a" : Format.millis(o.p99Nanos()),
            o.drainMillis() < 0 ? "**never**" : Format.seconds(o.drainMillis()),
            loud(o.rejected()),
            loud(o.stillPlaced()),
            o.deadlocks() < 0 ? "**n/a**" : loud(o.deadlocks()),
            o.stockProblems().isEmpty()
                ? o.products() + " products add up"
                : "**" + o.stockProblems().size() + " broken**");
      }
    }
    b.append("\n| goal | value | goal | verdict |\n| --- | ---: | ---: | --- |\n");
    for (Goal g : report.goals()) {
      line(b, g.name(), g.valueText(), g.goalText(), verdict(g));
    }
    if (!report.memory().isEmpty()) {
      b.append("\n| shop JVM (-Xmx256m) after load | VmRSS | VmHWM |\n| --- | ---: | ---: |\n");
      for (Map.Entry<String, double[]> e : report.memory().entrySet()) {
        line(b, e.getKey(), Format.megabytes(e.getValue()[0]), Format.megabytes(e.getValue()[1]));
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

  private static void line(StringBuilder b, Object... cells) {
    b.append(MarkdownTable.row(cells)).append('\n');
  }
}
