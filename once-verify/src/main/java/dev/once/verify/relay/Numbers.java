package dev.once.verify.relay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Medians and percentiles of the few values a phase collects. */
final class Numbers {
  private Numbers() {}

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return percentile(sorted, 0.5);
  }

  /** Of sorted values (nearest rank); NaN if none. */
  static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * p)));
  }

  /** "812, 790": rates without decimals. */
  static String rates(List<Double> rates) {
    return rates.stream()
        .map(r -> String.format(Locale.ROOT, "%.0f", r))
        .collect(Collectors.joining(", "));
  }
}
