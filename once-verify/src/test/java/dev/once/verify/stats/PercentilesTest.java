package dev.once.verify.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  @Test
  void nearestRank() {
    long[] hundred = new long[100];
    for (int i = 0; i < 100; i++) {
      hundred[i] = i + 1;
    }
    assertThat(Percentiles.of(hundred, 0.50)).isEqualTo(50);
    assertThat(Percentiles.of(hundred, 0.99)).isEqualTo(99);
    assertThat(Percentiles.of(hundred, 1.0)).isEqualTo(100);
    assertThat(Percentiles.of(hundred, 0.001)).isEqualTo(1);
    assertThat(Percentiles.of(new long[] {7}, 0.99)).isEqualTo(7);
    assertThat(Percentiles.of(new long[] {1, 2, 3}, 0.5)).isEqualTo(2);
  }

  @Test
  void doublesTakeTheSameRanks() {
    List<Double> hundred = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      hundred.add(i + 1.0);
    }
    assertThat(Percentiles.of(hundred, 0.50)).isEqualTo(50.0);
    assertThat(Percentiles.of(hundred, 0.99)).isEqualTo(99.0);
    assertThat(Percentiles.of(hundred, 1.0)).isEqualTo(100.0);
    assertThat(Percentiles.of(List.of(1.0, 2.0), 0.5)).isEqualTo(1.0);
    assertThat(Percentiles.of(List.<Double>of(), 0.99)).isNaN();
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> Percentiles.of(List.of(1.0), 0));
  }

  @Test
  void refusesNoSamplesAndBadQuantiles() {
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> Percentiles.of(new long[0], 0.5));
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> Percentiles.of(new long[] {1}, 0));
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> Percentiles.of(new long[] {1}, 1.5));
  }

  @Test
  void samplesMergeSorted() {
    Samples a = new Samples();
    Samples b = new Samples();
    for (int i = 40_000; i > 0; i--) {
      (i % 2 == 0 ? a : b).add(i);
    }
    long[] all = Samples.mergeSorted(List.of(a, b));
    assertThat(all.length).isEqualTo(40_000);
    assertThat(all[0]).isEqualTo(1);
    assertThat(all[all.length - 1]).isEqualTo(40_000);
  }

  @Test
  void ratiosAgainstTheirGoals() {
    Goal met = Goal.ratio("on / off", 900, 1000, 0.85);
    assertThat(met.value()).isCloseTo(0.9, within(1e-12));
    assertThat(met.verdict()).isEqualTo(Goal.Verdict.PASS);
    assertThat(met.valueText()).isEqualTo("0.90");
    assertThat(met.goalText()).isEqualTo("≥ 0.85");
    assertThat(Goal.ratio("exact", 85, 100, 0.85).verdict()).isEqualTo(Goal.Verdict.PASS);
    assertThat(Goal.ratio("low", 84, 100, 0.85).verdict()).isEqualTo(Goal.Verdict.MISS);
    Goal missing = Goal.ratio("not run", Double.NaN, 100, 0.85);
    assertThat(Double.isNaN(missing.value())).isTrue();
    assertThat(missing.verdict()).isEqualTo(Goal.Verdict.NOT_MEASURED);
    assertThat(missing.valueText()).isEqualTo("n/a");
    assertThat(Goal.ratio("zero", 5, 0, 0.85).verdict()).isEqualTo(Goal.Verdict.NOT_MEASURED);
  }

  @Test
  void sizesAgainstAnUpperBound() {
    assertThat(Goal.atMost("rss", 300, 300, "MB").verdict()).isEqualTo(Goal.Verdict.PASS);
    Goal big = Goal.atMost("rss", 312.4, 300, "MB");
    assertThat(big.verdict()).isEqualTo(Goal.Verdict.MISS);
    assertThat(big.valueText()).isEqualTo("312 MB");
    assertThat(big.goalText()).isEqualTo("≤ 300 MB");
  }
}
