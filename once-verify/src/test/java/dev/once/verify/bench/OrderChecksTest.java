package dev.once.verify.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
    assertThat(OrderChecks.percentilesNanos(micros))
        .isEqualTo(new long[] {50_000_000L, 99_000_000L});
    assertThat(micros[0]).as("the input is left as it was").isEqualTo(100_000L);
    assertThat(OrderChecks.percentilesNanos(new long[] {7})).isEqualTo(new long[] {7_000L, 7_000L});
  }

  @Test
  void noSamplesNoPercentiles() {
    assertThat(OrderChecks.percentilesNanos(new long[0])).isEqualTo(new long[] {-1, -1});
  }

  @Test
  void stockThatAddsUpHasNoProblems() {
    List<StockRow> rows =
        List.of(
            new StockRow("hot-0", 1_000_000_000L, 0, 999_990_000L, 10_000, 10_000),
            new StockRow("hot-1", 100, 5, 105, 0, 0));
    assertThat(OrderChecks.stockProblems(rows)).isEqualTo(List.of());
  }

  @Test
  void everyBrokenInvariantIsReported() {
    List<String> problems =
        OrderChecks.stockProblems(
            List.of(
                new StockRow("lost", 100, 0, 90, 5, 5),
                new StockRow("unheld", 100, 0, 90, 10, 7),
                new StockRow("oversold", 0, 0, -2, 2, 2)));
    assertThat(problems.size()).as(problems.toString()).isEqualTo(3);
    assertThat(problems.get(0))
        .as(problems.get(0))
        .contains("lost: available 90 + reserved 5 != initial 100 + restocked 0");
    assertThat(problems.get(1)).as(problems.get(1)).contains("unheld: reserved 10 != 7 held");
    assertThat(problems.get(2)).as(problems.get(2)).contains("oversold: negative");
  }
}
