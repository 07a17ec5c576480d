package dev.once.verify.stats;

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
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("q must be in (0, 1], was " + q);
    }
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
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
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("q must be in (0, 1], was " + q);
    }
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(rank, 1) - 1);
  }
}
