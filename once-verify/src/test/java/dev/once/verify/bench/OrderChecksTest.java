package dev.once.verify.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.bench.OrderChecks.StockRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrderChecksTest {

  @Test
  void percentilesOfMicrosecondsFromTheDatabaseInAnyOrder() {
    long[] micros = new long[100];
    for (int i = 0; i < 100; i++) {
      micros[i] = (100 - i) * 1_000L; // 100 ms down to 1 ms
    }
    assertArrayEquals(new long[] {50_000_000L, 99_000_000L}, OrderChecks.percentilesNanos(micros));
    assertEquals(100_000L, micros[0], "the input is left as it was");
    assertArrayEquals(new long[] {7_000L, 7_000L}, OrderChecks.percentilesNanos(new long[] {7}));
  }

  @Test
  void noSamplesNoPercentiles() {
    assertArrayEquals(new long[] {-1, -1}, OrderChecks.percentilesNanos(new long[0]));
  }

  @Test
  void stockThatAddsUpHasNoProblems() {
    List<StockRow> rows =
        List.of(
            new StockRow("hot-0", 1_000_000_000L, 0, 999_990_000L, 10_000, 10_000),
            new StockRow("hot-1", 100, 5, 105, 0, 0));
    assertEquals(List.of(), OrderChecks.stockProblems(rows));
  }

  @Test
  void everyBrokenInvariantIsReported() {
    List<String> problems =
        OrderChecks.stockProblems(
            List.of(
                new StockRow("lost", 100, 0, 90, 5, 5),
                new StockRow("unheld", 100, 0, 90, 10, 7),
                new StockRow("oversold", 0, 0, -2, 2, 2)));
    assertEquals(3, problems.size(), problems.toString());
    assertTrue(
        problems.get(0).contains("lost: available 90 + reserved 5 != initial 100 + restocked 0"),
        problems.get(0));
    assertTrue(problems.get(1).contains("unheld: reserved 10 != 7 held"), problems.get(1));
    assertTrue(problems.get(2).contains("oversold: negative"), problems.get(2));
  }
}
