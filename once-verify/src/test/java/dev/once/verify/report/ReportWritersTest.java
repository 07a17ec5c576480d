package dev.once.verify.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.json.JsonCanonicalizer;
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
    assertTrue(
        table.contains(
            "| orders [round 1] | 30,000 | 20,000 | 35.00 ms | 120.50 ms | 1.4 s | 0 | 0 | 0 |"
                + " 10 products add up |"),
        table);
    assertTrue(
        table.contains(
            "| orders \\| [round 2] | 30,000 | 0 | n/a | n/a | **never** | **2** | **5** | **1** |"
                + " **1 broken** |"),
        table);
    List<String> problems = TableWriter.problems(report);
    assertTrue(
        problems.contains("FAILED in orders | [round 2]: 2 orders rejected"), problems.toString());
    assertTrue(problems.contains("FAILED in orders | [round 2]: 1 deadlocks"), problems.toString());
    assertTrue(
        problems.contains(
            "FAILED in orders | [round 2]: stock of hot-3: reserved 10 != 7 held in reservations"),
        problems.toString());
    assertEquals(5, problems.size(), problems.toString());
    assertTrue(report.orders().get(0).clean());
    assertFalse(report.clean());
    assertFalse(TableWriter.write(report()).contains("place → reserved"));
  }

  @Test
  void aReportIsCleanOnlyIfEveryScenarioAndCheckIs() {
    BenchReport r = reportWithOrders();
    BenchReport ordersOk =
        new BenchReport(
            Map.of(), List.of(), List.of(), Map.of(), List.of(), List.of(r.orders().get(0)));
    assertTrue(ordersOk.clean());
    BenchReport noDeadlockCount =
        new BenchReport(
            Map.of(),
            List.of(),
            List.of(),
            Map.of(),
            List.of(),
            List.of(new OrdersResult("o", 1, 1, 1, 1, 1, 0, 0, -1, 10, List.of())));
    assertFalse(noDeadlockCount.clean());
    assertFalse(report().clean()); // http-off had unexpected answers
  }

  @Test
  void jsonWithOrdersIsWellFormed() {
    String canonical =
        JsonCanonicalizer.create().canonicalize(JsonWriter.write(reportWithOrders()));
    assertTrue(canonical.contains("\"placeToReservedP99Millis\":120.5"), canonical);
    assertTrue(canonical.contains("\"placeToReservedP50Millis\":null"), canonical);
    assertTrue(canonical.contains("\"allReservedAfterSeconds\":1.4"), canonical);
    assertTrue(canonical.contains("\"deadlocks\":1"), canonical);
    assertTrue(
        canonical.contains(
            "\"stockProblems\":[\"stock of hot-3: reserved 10 != 7 held in reservations\"]"),
        canonical);
    assertTrue(canonical.contains("\"clean\":false"), canonical);
  }

  @Test
  void svgWithOrdersIsWellFormedWithTheirBars() throws Exception {
    String svg = SvgChart.write(reportWithOrders());
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document doc =
        factory
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    // background + 2 scenario bars + p50 and p99 of the first orders round + 4 goal bars
    assertEquals(9, doc.getElementsByTagName("rect").getLength());
    assertTrue(svg.contains("p50 35.00 ms, p99 120.50 ms"), svg);
  }

  @Test
  void tableHasEveryScenarioGoalAndProblem() {
    String table = TableWriter.write(report());
    assertTrue(
        table.contains(
            "| HTTP <new> & \"paid\" | 16 | 1,000 | 11.00 ms | 38.00 ms | 0 | 0 | 2,000 µs | 500 µs | 3% |"),
        table);
    assertTrue(table.contains("| HTTP off \\| pipe | 16 | 0 |"), table);
    assertTrue(table.contains("| on / off | 0.91 | ≥ 0.85 | pass |"), table);
    assertTrue(table.contains("| replays / GET | 0.80 | ≥ 0.95 | **miss** |"), table);
    assertTrue(table.contains("| not run | n/a | ≥ 0.60 | not measured |"), table);
    assertTrue(table.contains("| RSS | 286 MB | ≤ 300 MB | pass |"), table);
    assertTrue(table.contains("| Once on | 286 MB | 291 MB |"), table);
    assertTrue(table.contains("**UNEXPECTED in http-off: 3 unexpected answers, 1 errors"), table);
  }

  @Test
  void jsonIsWellFormed() {
    String json = JsonWriter.write(report());
    // once-core's RFC 8785 canonicalizer parses strictly and throws on malformed JSON.
    String canonical = JsonCanonicalizer.create().canonicalize(json);
    assertTrue(canonical.contains("\"perSecond\":1000"), canonical);
    assertTrue(canonical.contains("\"jvmCpuMicrosPerRequest\":null"), canonical);
    assertTrue(canonical.contains("\"otherProcessesCpuShare\":0.034"), canonical);
    assertTrue(canonical.contains("\"verdict\":\"not_measured\""), canonical);
    assertTrue(
        canonical.contains("\"firstProblem\":\"unexpected answer: 503 {\\\"x\\\":\\\"\\n\\\"}\""),
        canonical);
  }

  @Test
  void jsonOfAnEmptyReportIsWellFormed() {
    BenchReport empty = new BenchReport(Map.of(), List.of(), List.of(), Map.of(), List.of());
    JsonCanonicalizer.create().canonicalize(JsonWriter.write(empty));
  }

  @Test
  void svgIsWellFormedXmlWithABarPerScenarioAndGoal() throws Exception {
    String svg = SvgChart.write(report());
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document doc =
        factory
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertEquals("svg", doc.getDocumentElement().getLocalName());
    assertEquals("http://www.w3.org/2000/svg", doc.getDocumentElement().getNamespaceURI());
    // background + 2 scenario bars + 4 goal bars
    assertEquals(7, doc.getElementsByTagName("rect").getLength());
    assertEquals(4, doc.getElementsByTagName("line").getLength());
    assertTrue(svg.contains("HTTP &lt;new&gt; &amp; &quot;paid&quot;"));
  }

  @Test
  void writesTheThreeFiles(@TempDir Path folder) throws Exception {
    MarkdownWriter.writeAll(report(), folder.resolve("run"));
    String md = Files.readString(folder.resolve("run/results.md"));
    assertTrue(md.startsWith("# once-verify bench\n\n- cores: 2\n"), md);
    assertTrue(md.contains("- a note with \"quotes\""), md);
    assertTrue(Files.size(folder.resolve("run/results.json")) > 0);
    assertTrue(Files.size(folder.resolve("run/chart.svg")) > 0);
  }
}
