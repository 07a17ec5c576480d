package dev.once.verify.report;

import dev.once.verify.load.LoadResult;
import dev.once.verify.stats.Goal;
import java.util.Iterator;
import java.util.Map;

/**
 * results.json: the machine, every scenario's numbers, the orders' checks, the goals and the
 * memory.
 */
public final class JsonWriter {
  private JsonWriter() {}

  public static String write(BenchReport report) {
    StringBuilder b = new StringBuilder("{\n  \"machine\": {");
    Iterator<Map.Entry<String, String>> machine = report.machine().entrySet().iterator();
    while (machine.hasNext()) {
      Map.Entry<String, String> e = machine.next();
      b.append("\n    ").append(string(e.getKey())).append(": ").append(string(e.getValue()));
      b.append(machine.hasNext() ? "," : "\n  ");
    }
    b.append("},\n  \"scenarios\": [");
    for (int i = 0; i < report.results().size(); i++) {
      LoadResult r = report.results().get(i);
      b.append(i == 0 ? "\n" : ",\n")
          .append("    {\"id\": ")
          .append(string(r.id()))
          .append(", \"title\": ")
          .append(string(r.title()))
          .append(", \"workers\": ")
          .append(r.workers())
          .append(", \"completed\": ")
          .append(r.completed())
          .append(", \"windowSeconds\": ")
          .append(Format.json(r.windowNanos() / 1e9))
          .append(", \"perSecond\": ")
          .append(Format.json(r.perSecond()))
          .append(", \"p50Millis\": ")
          .append(Format.json(r.p50Nanos() / 1e6))
          .append(", \"p99Millis\": ")
          .append(Format.json(r.p99Nanos() / 1e6))
          .append(", \"unexpected\": ")
          .append(r.unexpected())
          .append(", \"errors\": ")
          .append(r.errors())
          .append(", \"firstProblem\": ")
          .append(r.firstProblem() == null ? "null" : string(r.firstProblem()))
          .append(", \"jvmCpuMicrosPerRequest\": ")
          .append(Format.json(r.jvmCpuMicrosPerOp()))
          .append(", \"postgresCpuMicrosPerRequest\": ")
          .append(Format.json(r.postgresCpuMicrosPerOp()))
          .append(", \"otherProcessesCpuShare\": ")
          .append(Format.json(r.othersCpuShare()))
          .append("}");
    }
    b.append("\n  ],\n  \"orders\": [");
    for (int i = 0; i < report.orders().size(); i++) {
      OrdersResult o = report.orders().get(i);
      b.append(i == 0 ? "\n" : ",\n")
          .append("    {\"title\": ")
          .append(string(o.title()))
          .append(", \"orders\": ")
          .append(o.orders())
          .append(", \"measured\": ")
          .append(o.measured())
          .append(", \"placeToReservedP50Millis\": ")
          .append(o.p50Nanos() < 0 ? "null" : Format.json(o.p50Nanos() / 1e6))
          .append(", \"placeToReservedP99Millis\": ")
          .append(o.p99Nanos() < 0 ? "null" : Format.json(o.p99Nanos() / 1e6))
          .append(", \"allReservedAfterSeconds\": ")
          .append(o.drainMillis() < 0 ? "null" : Format.json(o.drainMillis() / 1e3))
          .append(", \"rejected\": ")
          .append(o.rejected())
          .append(", \"stillPlaced\": ")
          .append(o.stillPlaced())
          .append(", \"deadlocks\": ")
          .append(o.deadlocks() < 0 ? "null" : Long.toString(o.deadlocks()))
          .append(", \"products\": ")
          .append(o.products())
          .append(", \"stockProblems\": [");
      for (int j = 0; j < o.stockProblems().size(); j++) {
        b.append(j == 0 ? "" : ", ").append(string(o.stockProblems().get(j)));
      }
      b.append("], \"clean\": ").append(o.clean()).append("}");
    }
    b.append("\n  ],\n  \"goals\": [");
    for (int i = 0; i < report.goals().size(); i++) {
      Goal g = report.goals().get(i);
      b.append(i == 0 ? "\n" : ",\n")
          .append("    {\"name\": ")
          .append(string(g.name()))
          .append(", \"value\": ")
          .append(Format.json(g.value()))
          .append(", \"goal\": ")
          .append(Format.json(g.goal()))
          .append(", \"atLeast\": ")
          .append(g.atLeast())
          .append(", \"unit\": ")
          .append(string(g.unit()))
          .append(", \"verdict\": ")
          .append(string(g.verdict().name().toLowerCase(java.util.Locale.ROOT)))
          .append("}");
    }
    b.append("\n  ],\n  \"memoryMegabytes\": {");
    Iterator<Map.Entry<String, double[]>> memory = report.memory().entrySet().iterator();
    while (memory.hasNext()) {
      Map.Entry<String, double[]> e = memory.next();
      b.append("\n    ")
          .append(string(e.getKey()))
          .append(": {\"vmRss\": ")
          .append(Format.json(e.getValue()[0]))
          .append(", \"vmHwm\": ")
          .append(Format.json(e.getValue()[1]))
          .append("}")
          .append(memory.hasNext() ? "," : "\n  ");
    }
    b.append("},\n  \"notes\": [");
    for (int i = 0; i < report.notes().size(); i++) {
      b.append(i == 0 ? "\n    " : ",\n    ").append(string(report.notes().get(i)));
    }
    b.append(report.notes().isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
    return b.toString();
  }

  /** A JSON string literal: the one escaping of every report once-verify writes. */
  public static String string(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }
}
