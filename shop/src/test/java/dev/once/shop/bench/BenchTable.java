package dev.once.shop.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The final table of the shop's in-process KafkaBenchmark (FairnessBenchmark uses its {@link #f}):
 * each measure, its value, its goal and a verdict.
 */
final class BenchTable {
  static final String PASS = "PASS", MISS = "MISS", REPORTED = "reported";

  private record Row(String measure, String value, String goal, String verdict) {}

  private final List<String> header = new ArrayList<>();
  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  void header(String line) {
    header.add(line);
  }

  void note(String line) {
    notes.add(line);
  }

  /** A measure with a goal: PASS if {@code met}. */
  void goal(String measure, String value, String goal, boolean met) {
    rows.add(new Row(measure, value, goal, met ? PASS : MISS));
  }

  /** A measure without a goal. */
  void reported(String measure, String value) {
    rows.add(new Row(measure, value, "reported", REPORTED));
  }

  /** A measure that could not be taken (the phase failed, or was not run). */
  void missing(String measure, String why, String goal) {
    rows.add(new Row(measure, why, goal, goal.equals("reported") ? "not measured" : MISS));
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>(header);
    lines.add("");
    lines.add("| measure | value | goal | verdict |");
    lines.add("| --- | --- | --- | --- |");
    for (Row r : rows) {
      lines.add(
          "| "
              + escape(r.measure)
              + " | "
              + escape(r.value)
              + " | "
              + escape(r.goal)
              + " | "
              + (r.verdict.equals(REPORTED) ? "–" : "**" + r.verdict + "**")
              + " |");
    }
    if (!notes.isEmpty()) {
      lines.add("");
      notes.forEach(n -> lines.add("- " + n));
    }
    return lines;
  }

  private static String escape(String cell) {
    return cell.replace("|", "\\|");
  }

  /** Prints the table and writes it to {@code folder}/{@code name}-<time>.md. */
  Path printAndWrite(String name, Path folder) throws IOException {
    List<String> lines = lines();
    System.out.println();
    lines.forEach(System.out::println);
    Files.createDirectories(folder);
    Path file =
        folder.resolve(
            name
                + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + ".md");
    Files.write(file, lines);
    System.out.println("written to " + file.toAbsolutePath());
    return file;
  }

  static String f(String format, Object... values) {
    return String.format(Locale.ROOT, format, values);
  }
}
