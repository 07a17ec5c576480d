package dev.once.verify.relay;

import dev.once.verify.report.MarkdownTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The final table of {@code relay}: a header of lines, then one row per measure with its value, its
 * goal and a verdict (PASS, MISS, "not measured", or a dash for a measure without a goal), then
 * notes, if any (the statements a drain ran most).
 */
final class RelayTable {
  static final String REPORTED = "reported";

  private final List<String> header = new ArrayList<>();
  private final List<String[]> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  void header(String line) {
    header.add(line);
  }

  /** A line below the table. */
  void note(String line) {
    notes.add(line);
  }

  /** A measure with a goal: PASS if {@code met}, else MISS. */
  void goal(String measure, String value, String goal, boolean met) {
    rows.add(new String[] {measure, value, goal, met ? "**PASS**" : "**MISS**"});
  }

  /** A measure without a goal. */
  void reported(String measure, String value) {
    rows.add(new String[] {measure, value, REPORTED, "–"});
  }

  /** A measure that could not be taken: its phase failed. */
  void missing(String measure, String why, String goal) {
    String verdict = REPORTED.equals(goal) ? "not measured" : "**MISS**";
    rows.add(new String[] {measure, why, goal, verdict});
  }

  /** The header, a blank line, the table in markdown, then the notes as a list. */
  List<String> markdown() {
    List<String> out = new ArrayList<>(header);
    out.add("");
    out.add("| measure | value | goal | verdict |");
    out.add("| --- | --- | --- | --- |");
    for (String[] row : rows) {
      out.add(MarkdownTable.row((Object[]) row));
    }
    if (!notes.isEmpty()) {
      out.add("");
      notes.forEach(note -> out.add("- " + note));
    }
    return out;
  }

  /** Prints the table and writes it to {@code folder}/relay-<local time>.md; returns the file. */
  Path printAndWrite(Path folder) throws IOException {
    List<String> lines = markdown();
    System.out.println();
    lines.forEach(System.out::println);
    Files.createDirectories(folder);
    String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path file = folder.resolve("relay-" + time + ".md");
    Files.write(file, lines);
    System.out.println("written to " + file.toAbsolutePath());
    return file;
  }

  /** "812, 790": rates without decimals. */
  static String rates(List<Double> rates) {
    return rates.stream().map(r -> f("%.0f", r)).collect(Collectors.joining(", "));
  }

  static String f(String format, Object... values) {
    return String.format(Locale.ROOT, format, values);
  }
}
