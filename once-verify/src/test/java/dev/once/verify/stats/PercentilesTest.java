package dev.once.verify.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  @Test
  void nearestRank() {
    long[] hundred = new long[100];
    for (int i = 0; i < 100; i++) {
      hundred[i] = i + 1;
    }
    assertEquals(50, Percentiles.of(hundred, 0.50));
    assertEquals(99, Percentiles.of(hundred, 0.99));
    assertEquals(100, Percentiles.of(hundred, 1.0));
    assertEquals(1, Percentiles.of(hundred, 0.001));
    assertEquals(7, Percentiles.of(new long[] {7}, 0.99));
    assertEquals(2, Percentiles.of(new long[] {1, 2, 3}, 0.5));
  }

  @Test
  void refusesNoSamplesAndBadQuantiles() {
    assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new long[0], 0.5));
    assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new long[] {1}, 0));
    assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new long[] {1}, 1.5));
  }

  @Test
  void samplesMergeSorted() {
    Samples a = new Samples();
    Samples b = new Samples();
    for (int i = 40_000; i > 0; i--) {
      (i % 2 == 0 ? a : b).add(i);
    }
    long[] all = Samples.mergeSorted(List.of(a, b));
    assertEquals(40_000, all.length);
    assertEquals(1, all[0]);
    assertEquals(40_000, all[all.length - 1]);
  }

  @Test
  void ratiosAgainstTheirGoals() {
    Goal met = Goal.ratio("on / off", 900, 1000, 0.85);
    assertEquals(0.9, met.value(), 1e-12);
    assertEquals(Goal.Verdict.PASS, met.verdict());
    assertEquals("0.90", met.valueText());
    assertEquals("≥ 0.85", met.goalText());
    assertEquals(Goal.Verdict.PASS, Goal.ratio("exact", 85, 100, 0.85).verdict());
    assertEquals(Goal.Verdict.MISS, Goal.ratio("low", 84, 100, 0.85).verdict());
    Goal missing = Goal.ratio("not run", Double.NaN, 100, 0.85);
    assertTrue(Double.isNaN(missing.value()));
    assertEquals(Goal.Verdict.NOT_MEASURED, missing.verdict());
    assertEquals("n/a", missing.valueText());
    assertEquals(Goal.Verdict.NOT_MEASURED, Goal.ratio("zero", 5, 0, 0.85).verdict());
  }

  @Test
  void sizesAgainstAnUpperBound() {
    assertEquals(Goal.Verdict.PASS, Goal.atMost("rss", 300, 300, "MB").verdict());
    Goal big = Goal.atMost("rss", 312.4, 300, "MB");
    assertEquals(Goal.Verdict.MISS, big.verdict());
    assertEquals("312 MB", big.valueText());
    assertEquals("≤ 300 MB", big.goalText());
  }
}
