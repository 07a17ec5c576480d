package dev.once.verify.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** results.md (machine, flags, tables, notes), results.json and chart.svg in one folder. */
public final class MarkdownWriter {
  private MarkdownWriter() {}

  public static String write(BenchReport report) {
    StringBuilder b = new StringBuilder("# once-verify bench\n\n");
    for (Map.Entry<String, String> e : report.machine().entrySet()) {
      b.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
    }
    b.append('\n').append(TableWriter.write(report));
    if (!report.notes().isEmpty()) {
      b.append('\n');
      for (String note : report.notes()) {
        b.append("- ").append(note).append('\n');
      }
    }
    b.append("\n![chart](chart.svg)\n");
    return b.toString();
  }

  /** Writes the three files into {@code folder}, creating it. */
  public static void writeAll(BenchReport report, Path folder) throws IOException {
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("results.md"), write(report), StandardCharsets.UTF_8);
    Files.writeString(
        folder.resolve("results.json"), JsonWriter.write(report), StandardCharsets.UTF_8);
    Files.writeString(folder.resolve("chart.svg"), SvgChart.write(report), StandardCharsets.UTF_8);
  }
}
