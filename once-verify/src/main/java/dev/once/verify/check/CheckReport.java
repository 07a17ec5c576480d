package dev.once.verify.check;

import dev.once.verify.report.JsonWriter;
import dev.once.verify.report.Verdict;
import java.util.List;

/** The verdicts as a text table for the terminal and as JSON for the report file. */
public final class CheckReport {
  private CheckReport() {}

  /** Whether no invariant failed (warnings allowed). */
  public static boolean passed(List<Verdict> verdicts) {
    return verdicts.stream().noneMatch(Verdict::failed);
  }

  /** One row per invariant, then a one-line summary. */
  public static String table(List<Verdict> verdicts) {
    int width = "invariant".length();
    for (Verdict v : verdicts) {
      width = Math.max(width, v.id().length());
    }
    String format = "%-" + width + "s  %-6s  %9s  %10s  %s%n";
    StringBuilder b = new StringBuilder();
    b.append(String.format(format, "invariant", "result", "checked", "violations", "examples"));
    for (Verdict v : verdicts) {
      b.append(
          String.format(
                  format,
                  v.id(),
                  v.status(),
                  v.checked(),
                  v.violations(),
                  String.join(" ", v.examples()))
              .stripTrailing());
      b.append(System.lineSeparator());
    }
    long failed = verdicts.stream().filter(Verdict::failed).count();
    long warned = verdicts.stream().filter(v -> v.status() == Verdict.Status.WARN).count();
    b.append(
        failed == 0
            ? "PASS: all " + verdicts.size() + " invariants hold"
            : "FAIL: " + failed + " of " + verdicts.size() + " invariants violated");
    if (warned > 0) {
      b.append(" (" + warned + " with allowed violations)");
    }
    b.append(System.lineSeparator());
    return b.toString();
  }

  /** {@code {"result": ..., "invariants": [...]}}. */
  public static String json(List<Verdict> verdicts) {
    StringBuilder b = new StringBuilder();
    b.append("{\n  \"result\": ").append(string(passed(verdicts) ? "PASS" : "FAIL"));
    b.append(",\n  \"invariants\": [");
    for (int i = 0; i < verdicts.size(); i++) {
      Verdict v = verdicts.get(i);
      b.append(i == 0 ? "\n" : ",\n");
      b.append("    {\"id\": ").append(string(v.id()));
      b.append(", \"description\": ").append(string(v.description()));
      b.append(", \"status\": ").append(string(v.status().name()));
      b.append(", \"checked\": ").append(v.checked());
      b.append(", \"violations\": ").append(v.violations());
      b.append(", \"examples\": [");
      for (int j = 0; j < v.examples().size(); j++) {
        b.append(j == 0 ? "" : ", ").append(string(v.examples().get(j)));
      }
      b.append("]}");
    }
    b.append(verdicts.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
    return b.toString();
  }

  static String string(String s) {
    return JsonWriter.string(s);
  }
}
