package dev.once.shop.bench;

import static dev.once.shop.bench.BenchTable.f;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.DoublePredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 38's one table (bench/batches.sh): reads what one run of {@code once-verify relay} wrote
 * (its markdown table) and what each KafkaBenchmark run wrote ({@code --facts}), and prints each
 * figure of the table against its goal, then the counts per event of each drain, then the
 * parts' own tables. Reads files only: it measures nothing and asserts nothing; a part that did not
 * run or failed leaves its rows "not measured" (a MISS where the row has a goal).
 *
 * <pre>
 * BatchesReport --relay relay.md --kafka kafka-24.properties --kafka kafka-6.properties \
 *     --header "- line" ... --out batches.md
 * </pre>
 */
public final class BatchesReport {
  private final List<String> header = new ArrayList<>();
  private final List<String> lines = new ArrayList<>();
  private final Map<String, String> relay = new LinkedHashMap<>();
  private final List<String> relayTable = new ArrayList<>();
  private final List<Properties> kafka = new ArrayList<>();
  private final List<Path> kafkaFiles = new ArrayList<>();
  private Path relayFile;

  public static void main(String[] args) throws IOException {
    BatchesReport report = new BatchesReport();
    Path out = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--relay" -> report.readRelay(Path.of(value));
        case "--kafka" -> report.readKafka(Path.of(value));
        case "--header" -> report.header.add(value);
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    List<String> text = report.build();
    text.forEach(System.out::println);
    if (out != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.write(out, text);
      System.out.println("written to " + out.toAbsolutePath());
    }
  }

  private void readRelay(Path file) throws IOException {
    if (file.toString().isEmpty() || !Files.isRegularFile(file)) {
      return;
    }
    relayFile = file;
    for (String line : Files.readAllLines(file)) {
      relayTable.add(line);
      if (line.startsWith("| ") && !line.startsWith("| measure") && !line.startsWith("| ---")) {
        String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
        if (cells.length >= 2) {
          relay.put(cells[0], cells[1]);
        }
      }
    }
  }

  /**
   * A run's facts; a run that wrote none (it failed) still has its rows, "not measured", with its
   * products from the file's name ({@code kafka-<products>.properties}).
   */
  private void readKafka(Path file) throws IOException {
    Properties p = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file)) {
        p.load(reader);
      }
    } else {
      Matcher m = Pattern.compile("kafka-(\\d+)\\.properties$").matcher(file.toString());
      p.setProperty("products", m.find() ? m.group(1) : "?");
    }
    kafka.add(p);
    kafkaFiles.add(file);
  }

  /** The relay table's value of the first row whose measure starts with {@code prefix}. */
  private String relayValue(String prefix) {
    return relay.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }

  private static final Pattern LEADING = Pattern.compile("^\\**([0-9][0-9,]*(?:\\.[0-9]+)?)");

  /** The number a value starts with, or NaN (a failed phase, or none). */
  private static double leading(String value) {
    if (value == null) {
      return Double.NaN;
    }
    Matcher m = LEADING.matcher(value.strip());
    return m.find() ? Double.parseDouble(m.group(1).replace(",", "")) : Double.NaN;
  }

  private static double number(Properties p, String key) {
    String value = p == null ? null : p.getProperty(key);
    try {
      return value == null ? Double.NaN : Double.parseDouble(value);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private void row(String measure, String now, String value, String goal, Boolean met) {
    boolean reported = goal.startsWith("reported");
    String verdict =
        met == null
            ? reported ? "not measured" : "**MISS** (not measured)"
            : reported ? "–" : met ? "**PASS**" : "**MISS**";
    lines.add(
        "| " + String.join(" | ", measure, now, value.replace("|", "\\|"), goal, verdict) + " |");
  }

  /** The verdict for a value: null if not measured. */
  private static Boolean met(double value, DoublePredicate goal) {
    return Double.isNaN(value) ? null : goal.test(value);
  }

  private static Boolean both(Boolean a, Boolean b) {
    return a == null || b == null ? null : a && b;
  }

  private List<String> build() {
    List<String> out = new ArrayList<>(header);
    lines.add("");
    lines.add("## Issue 38's table");
    lines.add("");
    lines.add("| measure | now (issue 38) | this run | goal | verdict |");
    lines.add("| --- | --- | --- | --- | --- |");
    for (Properties p : kafka) {
      drainRatio(p);
    }
    if (kafka.isEmpty()) {
      row(
          "orders drained, commit -> consumer effect, Kafka / in process",
          "0.22",
          "not run",
          ">= 0.70",
          null);
    }
    relayRow(
        "HTTP new payments, relay on / relay off",
        "HTTP new payments, relay on / relay off (as deployed: shedding on in the relay-on shop)",
        "0.24",
        ">= 0.80",
        v -> v >= 0.80);
    relayRow(
        "commit-to-settled under full HTTP load",
        "commit -> settled under that load, p99 (p50)",
        "5.6 s",
        "< 500 ms",
        v -> v < 500);
    relayRow(
        "relay alone:",
        "relay alone, "
            + (relay.isEmpty() ? "provider.charge rows," : relayMeasureTail("relay alone:"))
            + " fsync on",
        "500-790 rows/s",
        ">= 2,000 rows/s",
        v -> v >= 2000);
    for (Properties p : kafka) {
      ordersRow(p);
    }
    String relayOrders = relayValue("orders at ");
    if (relayOrders != null) {
      row(
          "orders at "
              + relayMeasureTail("orders at ")
              + " place -> reserved p99 (p50), in process, 10 hot products, the shop as its own"
              + " process (once-verify relay, phase orders)",
          "33.4 s (issue 21's run)",
          relayOrders,
          "< 2 s",
          met(leading(relayOrders), v -> v < 2));
    }
    for (Properties p : kafka) {
      kafkaCommitsRow(p);
    }
    for (Properties p : kafka) {
      pacedRows(p);
    }
    String relayCommits = relayValue("commits per delivered row during the relay-alone drain");
    if (relayCommits != null) {
      row(
          "relay alone: commits per delivered row (pg_stat_database)",
          "2.17 (issue 21's run)",
          relayCommits,
          "<= 1.2 (issue 21)",
          met(leading(relayCommits), v -> v <= 1.2));
    }
    countsTables();
    out.addAll(lines);
    out.add("");
    out.add("## The parts' own tables");
    out.add("");
    out.add(
        "- once-verify relay: "
            + (relayFile == null ? "not run, or it wrote no table" : relayFile.toString()));
    for (Path file : kafkaFiles) {
      out.add(
          "- KafkaBenchmark facts: "
              + file
              + (Files.isRegularFile(file) ? "" : " (not written: that run failed)"));
    }
    if (!relayTable.isEmpty()) {
      out.add("");
      out.add("### once-verify relay (phases http, relay, orders)");
      out.add("");
      relayTable.stream()
          .map(l -> l.startsWith("# ") ? "#### " + l.substring(2) : l)
          .forEach(out::add);
    }
    return out;
  }

  /** The row of the relay table's measure starting with {@code prefix}; its leading number. */
  private void relayRow(
      String prefix, String measure, String now, String goal, DoublePredicate met) {
    String value = relayValue(prefix);
    row(measure, now, value == null ? "not run" : value, goal, met(leading(value), met));
  }

  /** "50,000 provider.charge rows," from the relay table's measure, or "". */
  private String relayMeasureTail(String prefix) {
    return relay.keySet().stream()
        .filter(k -> k.startsWith(prefix))
        .map(k -> k.substring(prefix.length()).strip())
        .map(k -> k.replaceAll(",? *fsync on$", "").replaceAll(": *place -> reserved.*$", ""))
        .map(k -> k + ",")
        .findFirst()
        .orElse("");
  }

  private static String products(Properties p) {
    return p.getProperty("products", "?") + " products";
  }

  private void drainRatio(Properties p) {
    double in = number(p, "drain.in.eventsPerSecond") / 2;
    double kafkaRate = number(p, "drain.kafka.eventsPerSecond") / 2;
    double ratio = kafkaRate / in;
    boolean hot = "6".equals(p.getProperty("products"));
    row(
        "orders drained, commit -> consumer effect, Kafka / in process (same run, "
            + products(p)
            + ")",
        hot ? "0.06 (bench/kafka.sh, 6 hot products)" : "464 / 2,157 orders/s = 0.22",
        Double.isNaN(ratio)
            ? "not measured"
            : f(
                "%.0f / %.0f orders/s = %.2f (%s and %s orders drained, from the first reservation"
                    + " to the last order reserved; from the first order reserved, as measured"
                    + " before: %.2f)",
                kafkaRate,
                in,
                ratio,
                p.getProperty("drain.kafka.orders", "?"),
                p.getProperty("drain.in.orders", "?"),
                number(p, "drain.kafka.eventsPerSecondFromFirstReserved")
                    / number(p, "drain.in.eventsPerSecondFromFirstReserved")),
        ">= 0.70",
        met(ratio, v -> v >= 0.70));
  }

  private void ordersRow(Properties p) {
    double in = number(p, "load.in.p99");
    double k = number(p, "load.kafka.p99");
    row(
        f(
            "orders at %s connections, place -> reserved p99, in process / Kafka (%s)",
            p.getProperty("connections", "?"), products(p)),
        "6 products: 10.7 s / 29.6 s",
        Double.isNaN(in) && Double.isNaN(k)
            ? "not measured"
            : f(
                "%.2f s / %.2f s (p50 %.2f s / %.2f s; %.0f / %.0f orders/s, %s / %s 503;"
                    + " still placed 60 s after: %s / %s)",
                in,
                k,
                number(p, "load.in.p50"),
                number(p, "load.kafka.p50"),
                number(p, "load.in.rate"),
                number(p, "load.kafka.rate"),
                p.getProperty("load.in.shed", "?"),
                p.getProperty("load.kafka.shed", "?"),
                p.getProperty("load.in.placedAfter", "?"),
                p.getProperty("load.kafka.placedAfter", "?")),
        "< 2 s both",
        both(
            met(in, v -> v < 2 && number(p, "load.in.placedAfter") == 0),
            met(k, v -> v < 2 && number(p, "load.kafka.placedAfter") == 0)));
  }

  private void kafkaCommitsRow(Properties p) {
    double commits = number(p, "drain.kafka.perEvent.commits");
    double syncs = number(p, "drain.kafka.perEvent.walSyncs");
    row(
        "commits per event on the Kafka path (publish + consume), WAL fsyncs per event (drain, "
            + products(p)
            + ")",
        "~2.5, plus ~1.6 WAL-flush waits",
        Double.isNaN(commits)
            ? "not measured"
            : f(
                "%.2f commits, %.3f WAL fsyncs (pg_stat_wal wal_sync of every process, the"
                    + " walwriter's included; PostgreSQL 17 does not count the commits that waited"
                    + " for a flush, several of which may share one fsync: a proxy)",
                commits, syncs),
        "<= 0.2, flush waits <= 0.05 (fsyncs as the proxy)",
        both(met(commits, v -> v <= 0.2), met(syncs, v -> v <= 0.05)));
  }

  private void pacedRows(Properties p) {
    for (String t : List.of("in", "kafka")) {
      double p50 = number(p, "paced." + t + ".p50");
      if (Double.isNaN(p50)) {
        continue;
      }
      row(
          f(
              "commit -> effect at low load, %s (%s): created_at -> reserved_at p50 / p99",
              t.equals("in") ? "in process" : "Kafka", products(p)),
          "–",
          f(
              "%.0f ms / %.0f ms (%s orders at %.1f/s; %s still placed 60 s after)",
              p50 * 1000,
              number(p, "paced." + t + ".p99") * 1000,
              p.getProperty("paced." + t + ".orders"),
              number(p, "paced." + t + ".rate"),
              p.getProperty("paced." + t + ".placedAfter")),
          "reported (batching may add at most a poll's wait)",
          true);
    }
  }

  /** Per event, one column per drain: the counts of each path. */
  private void countsTables() {
    List<String> columns = new ArrayList<>();
    List<Properties> sources = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    for (Properties p : kafka) {
      for (String t : List.of("in", "kafka")) {
        if (p.getProperty("drain." + t + ".events") != null) {
          columns.add((t.equals("in") ? "in process" : "Kafka") + ", " + products(p) + " (drain)");
          sources.add(p);
          prefixes.add("drain." + t + ".");
        }
      }
    }
    lines.add("");
    lines.add("## Per event, each path (drains of the Kafka benchmark)");
    lines.add("");
    if (columns.isEmpty()) {
      lines.add("Not measured: no KafkaBenchmark run with --counts on wrote its facts.");
      return;
    }
    lines.add(
        "Window: from just before the relay-on shop starts (no shop connected) to just after it"
            + " closed; it holds the shop's start, the drain, its idle background and its close."
            + " Per event = total / events (two per order). The benchmark's own statements in the"
            + " shop's database are subtracted exactly; nothing else is.");
    lines.add("");
    lines.add("| per event | " + String.join(" | ", columns) + " |");
    lines.add("|" + " --- |".repeat(columns.size() + 1));
    List<String> events = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      events.add(
          f(
              "%s events in %s s",
              sources.get(c).getProperty(prefixes.get(c) + "events"),
              sources.get(c).getProperty(prefixes.get(c) + "window")));
    }
    lines.add("| events, counting window | " + String.join(" | ", events) + " |");
    for (Map.Entry<String, String> name : DrainCounts.NAMES.entrySet()) {
      List<String> cells = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        double v = number(sources.get(c), prefixes.get(c) + "perEvent." + name.getKey());
        double total = number(sources.get(c), prefixes.get(c) + "total." + name.getKey());
        if (name.getKey().equals("statements") && Double.isNaN(v)) {
          cells.add("n/a (no pg_stat_statements)");
        } else if (Double.isNaN(v)) {
          cells.add("n/a");
        } else if (Double.isNaN(total)) {
          cells.add(f("%.2f", v));
        } else {
          cells.add(f("%.3f (%,.0f)", v, total));
        }
      }
      lines.add("| " + name.getValue() + " | " + String.join(" | ", cells) + " |");
    }
    List<String> idle = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      Properties p = sources.get(c);
      String prefix = prefixes.get(c) + "idle.";
      Map<String, Double> totals = new LinkedHashMap<>();
      for (String name : DrainCounts.NAMES.keySet()) {
        totals.put(name, number(p, prefix + "total." + name));
      }
      idle.add(
          p.getProperty(prefix + "window") == null
              ? "not measured"
              : DrainCounts.idleSummary(totals, number(p, prefix + "window")));
    }
    lines.add(
        "| for comparison, not subtracted: the same relay-on shop with nothing to deliver, started,"
            + " 5 s, closed (totals) | "
            + String.join(" | ", idle)
            + " |");
    lines.add("");
    lines.add(
        "Not counted: rows per poll of the in-process consumers and rows per completion (no"
            + " counter of either in the code measured); CPU of the PSP simulator (not on this"
            + " path). Kafka requests are the shop's clients' own (JMX), the broker's not"
            + " included; n/a on the in-process path.");
    lines.add("");
    lines.add(
        "Statements with the most calls, per event (pg_stat_statements, the drain's window):");
    lines.add("");
    for (int c = 0; c < columns.size(); c++) {
      Properties p = sources.get(c);
      String prefix = prefixes.get(c);
      lines.add("- " + columns.get(c) + ":");
      for (int i = 0; p.getProperty(prefix + "top." + i) != null; i++) {
        lines.add("  - " + p.getProperty(prefix + "top." + i).replace("|", "\\|"));
      }
    }
  }
}
