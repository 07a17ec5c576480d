package dev.once.verify.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A row of a Markdown table, the one table format of once-verify's reports (bench's results.md and
 * terminal table, relay's table, chaos's summary.md): cells between pipes, a pipe within a cell
 * escaped.
 */
public final class MarkdownTable {
  private MarkdownTable() {}

  /** {@code | a | b |}, each cell as its text, a {@code |} in it escaped. */
  public static String row(Object... cells) {
    List<String> escaped = new ArrayList<>();
    for (Object cell : cells) {
      escaped.add(String.valueOf(cell).replace("|", "\\|"));
    }
    return "| " + String.join(" | ", escaped) + " |";
  }
}
