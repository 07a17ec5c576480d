package dev.once.verify.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.json.Json;
import dev.once.verify.load.LoadResult;
import dev.once.verify.stats.Goal;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import tools.jackson.databind.JsonNode;

class ReportWritersTest {

  private static BenchReport report() {
    Map<String, String> machine = new LinkedHashMap<>();
    machine.put("cores", "2");
    machine.put("flags", "--duration 20s --scenarios \"a\",b\\c");
    List<LoadResult> results =
        List.of(
            new LoadResult(
                "http-once",
                "HTTP <new> & \"paid\"",
                16,
                20_000,
                20_000_000_000L,
                11_000_000,
                38_000_000,
                0,
                0,
                null,
                40_000_000_000L,
                10_000_000_000L,
                0.034),
            new LoadResult(
                "http-off",
                "HTTP off | pipe",
                16,
                0,
                20_000_000_000L,
                0,
                0,
                3,
                1,
                "unexpected answer: 503 {\"x\":\"\n\"}",
                -1,
                -1,
                Double.NaN));
    List<Goal> goals =
        List.of(
            Goal.ratio("on / off", 1000, 1100, 0.85),
            Goal.ratio("replays / GET", 800, 1000, 0.95),
            Goal.ratio("not run", Double.NaN, 1, 0.6),
            Goal.atMost("RSS", 286, 300, "MB"));
    Map<String, double[]> memory = new LinkedHashMap<>();
    memory.put("Once on", new double[] {286.2, 290.9});
    return new BenchReport(machine, results, goals, memory, List.of("a note with \"quotes\""));
  }

  /** The same with two rounds of the orders scenario, the second one failing every check. */
  private static BenchReport reportWithOrders() {
    BenchReport r = report();
    List<OrdersResult> orders =
        List.of(
            new OrdersResult(
                "orders [round 1]",
                30_000,
                20_000,
                35_000_000,
                120_500_000,
                1_400,
                0,
                0,
                0,
                10,
                List.of()),
            new OrdersResult(
                "orders | [round 2]",
                30_000,
                0,
                -1,
                -1,
                -1,
                2,
                5,
                1,
                10,
                List.of("stock of hot-3: reserved 10 != 7 held in reservations")));
    return new BenchReport(r.machine(), r.results(), r.goals(), r.memory(), r.notes(), orders);
  }

  @Test
  void ordersTableAndItsProblems() {
    BenchReport report = reportWithOrders();
    String table = TableWriter.write(report);
    assertThat(table)
        .as(table)
        .contains(
            "| orders [round 1] | 30,000 | 20,000 | 35.00 ms | 120.50 ms | 1.4 s | 0 | 0 | 0 |"
                + " 10 products add up |");
    assertThat(table)
        .as(table)
        .contains(
            "| orders \\| [round 2] | 30,000 | 0 | n/a | n/a | **never** | **2** | **5** | **1** |"
                + " **1 broken** |");
    List<String> problems = TableWriter.problems(report);
    assertThat(problems)
        .as(problems.toString())
        .contains("FAILED in orders | [round 2]: 2 orders rejected");
    assertThat(problems)
        .as(problems.toString())
        .contains("FAILED in orders | [round 2]: 1 deadlocks");
    assertThat(problems)
        .as(problems.toString())
        .contains(
            "FAILED in orders | [round 2]: stock of hot-3: reserved 10 != 7 held in reservations");
    assertThat(problems.size()).as(problems.toString()).isEqualTo(5);
    assertThat(report.orders().get(0).clean()).isTrue();
    assertThat(report.clean()).isFalse();
    assertThat(TableWriter.write(report())).doesNotContain("place → reserved");
  }

  @Test
  void aReportIsCleanOnlyIfEveryScenarioAndCheckIs() {
    BenchReport r = reportWithOrders();
    BenchReport ordersOk =
        new BenchReport(
            Map.of(), List.of(), List.of(), Map.of(), List.of(), List.of(r.orders().get(0)));
    assertThat(ordersOk.clean()).isTrue();
    BenchReport noDeadlockCount =
        new BenchReport(
            Map.of(),
            List.of(),
            List.of(),
            Map.of(),
            List.of(),
            List.of(new OrdersResult("o", 1, 1, 1, 1, 1, 0, 0, -1, 10, List.of())));
    assertThat(noDeadlockCount.clean()).isFalse();
    assertThat(report().clean()).isFalse(); // http-off had unexpected answers
  }

  @Test
  void jsonWithOrdersIsWellFormed() {
    String json = JsonWriter.write(reportWithOrders());
    JsonCanonicalizer.create().canonicalize(json); // once-core's strict RFC 8785 reader
    JsonNode tree = Json.mapper().readTree(json);
    assertThat(values(tree, "placeToReservedP99Millis")).as(json).contains("120.5");
    assertThat(values(tree, "placeToReservedP50Millis")).as(json).contains("null");
    assertThat(values(tree, "allReservedAfterSeconds")).as(json).contains("1.4");
    assertThat(values(tree, "deadlocks")).as(json).contains("1");
    assertThat(values(tree, "stockProblems"))
        .as(json)
        .contains("[\"stock of hot-3: reserved 10 != 7 held in reservations\"]");
    assertThat(values(tree, "clean")).as(json).contains("false");
  }

  @Test
  void svgWithOrdersIsWellFormedWithTheirBars() throws Exception {
    String svg = SvgChart.write(reportWithOrders());
    Document doc = xml(svg);
    // background + 2 scenario bars + p50 and p99 of the first orders round + 4 goal bars
    assertThat(doc.getElementsByTagName("rect").getLength()).isEqualTo(9);
    assertThat(svg).as(svg).contains("p50 35.00 ms, p99 120.50 ms");
  }

  @Test
  void tableHasEveryScenarioGoalAndProblem() {
    String table = TableWriter.write(report());
    assertThat(table)
        .as(table)
        .contains(
            "| HTTP <new> & \"paid\" | 16 | 1,000 | 11.00 ms | 38.00 ms | 0 | 0 | 2,000 µs | 500 µs | 3% |");
    assertThat(table).as(table).contains("| HTTP off \\| pipe | 16 | 0 |");
    assertThat(table).as(table).contains("| on / off | 0.91 | ≥ 0.85 | pass |");
    assertThat(table).as(table).contains("| replays / GET | 0.80 | ≥ 0.95 | **miss** |");
    assertThat(table).as(table).contains("| not run | n/a | ≥ 0.60 | not measured |");
    assertThat(table).as(table).contains("| RSS | 286 MB | ≤ 300 MB | pass |");
    assertThat(table).as(table).contains("| Once on | 286 MB | 291 MB |");
    assertThat(table)
        .as(table)
        .contains("**UNEXPECTED in http-off: 3 unexpected answers, 1 errors");
  }

  @Test
  void jsonIsWellFormed() {
    String json = JsonWriter.write(report());
    // once-core's RFC 8785 canonicalizer parses strictly and throws on malformed JSON.
    JsonCanonicalizer.create().canonicalize(json);
    JsonNode tree = Json.mapper().readTree(json);
    assertThat(values(tree, "perSecond")).as(json).contains("1000");
    assertThat(values(tree, "jvmCpuMicrosPerRequest")).as(json).contains("null");
    assertThat(values(tree, "otherProcessesCpuShare")).as(json).contains("0.034");
    assertThat(values(tree, "verdict")).as(json).contains("\"not_measured\"");
    assertThat(tree.findValues("firstProblem"))
        .extracting(JsonNode::asString)
        .as(json)
        .contains("unexpected answer: 503 {\"x\":\"\n\"}");
  }

  @Test
  void jsonOfAnEmptyReportIsWellFormed() {
    BenchReport empty = new BenchReport(Map.of(), List.of(), List.of(), Map.of(), List.of());
    String json = JsonWriter.write(empty);
    JsonCanonicalizer.create().canonicalize(json); // throws on malformed JSON
    assertThat(Json.mapper().readTree(json).isObject()).as(json).isTrue();
  }

  @Test
  void svgIsWellFormedXmlWithABarPerScenarioAndGoal() throws Exception {
    String svg = SvgChart.write(report());
    Document doc = xml(svg);
    assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
    assertThat(doc.getDocumentElement().getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
    // background + 2 scenario bars + 4 goal bars
    assertThat(doc.getElementsByTagName("rect").getLength()).isEqualTo(7);
    assertThat(doc.getElementsByTagName("line").getLength()).isEqualTo(4);
    assertThat(svg).contains("HTTP &lt;new&gt; &amp; &quot;paid&quot;");
  }

  @Test
  void writesTheThreeFiles(@TempDir Path folder) throws Exception {
    MarkdownWriter.writeAll(report(), folder.resolve("run"));
    String md = Files.readString(folder.resolve("run/results.md"));
    assertThat(md).as(md).startsWith("# once-verify bench\n\n- cores: 2\n");
    assertThat(md).as(md).contains("- a note with \"quotes\"");
    assertThat(Files.size(folder.resolve("run/results.json")) > 0).isTrue();
    assertThat(Files.size(folder.resolve("run/chart.svg")) > 0).isTrue();
  }

  /**
   * Each value of a member {@code name} anywhere in {@code tree}, as JSON text; a number in its
   * shortest plain form ({@code 1000.0} as {@code 1000}), as the canonical form writes it.
   */
  private static List<String> values(JsonNode tree, String name) {
    return tree.findValues(name).stream()
        .map(
            v ->
                v.isNumber()
                    ? new java.math.BigDecimal(v.asString()).stripTrailingZeros().toPlainString()
                    : v.toString())
        .toList();
  }

  /** Parses {@code svg} as namespace-aware XML; throws if it is not well-formed. */
  private static Document xml(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory
        .newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }
}
