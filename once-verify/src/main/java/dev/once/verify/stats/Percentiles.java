package dev.once.verify.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Percentiles of sorted samples by the nearest-rank method (no interpolation): the one definition
 * of p50 and p99 in every report of once-verify.
 */
public final class Percentiles {
  private Percentiles() {}

  /**
   * The smallest sample such that at least {@code q} of all samples are at most it, e.g. {@code q =
   * 0.99} for p99.
   *
   * @param sorted ascending samples
   * @param q in (0, 1]
   * @throws IllegalArgumentException if there are no samples or {@code q} is out of range
   */
  public static long of(long[] sorted, double q) {
    if (sorted.length == 0) {
      checked(q);
      throw new IllegalArgumentException("no samples");
    }
    return sorted[index(sorted.length, q)];
  }

  /**
   * {@link #of(long[], double)} of samples held as doubles (seconds, rates).
   *
   * @param sorted ascending samples
   * @param q in (0, 1]
   * @return the percentile, or NaN if there are no samples
   * @throws IllegalArgumentException if {@code q} is out of range
   */
  public static double of(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      checked(q);
      return Double.NaN;
    }
    return sorted.get(index(sorted.size(), q));
  }

  /**
   * The nearest-rank median of {@code values} in any order (the lower middle one of an even count).
   */
  public static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return of(sorted, 0.5);
  }

  /** The nearest rank's index among {@code size > 0} sorted samples. */
  private static int index(int size, double q) {
    return Math.max((int) Math.ceil(checked(q) * size), 1) - 1;
  }

  private static double checked(double q) {
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("q must be in (0, 1], was " + q);
    }
    return q;
  }
}
