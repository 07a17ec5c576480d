package dev.once.verify.relay;

import dev.once.verify.stats.Percentiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Medians of the few values a phase collects, and how rates print. */
final class Numbers {
  private Numbers() {}

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return Percentiles.of(sorted, 0.5);
  }

  /** "812, 790": rates without decimals. */
  static String rates(List<Double> rates) {
    return rates.stream()
        .map(r -> String.format(Locale.ROOT, "%.0f", r))
        .collect(Collectors.joining(", "));
  }
}
