package dev.once.verify.report;

import java.util.Locale;

/** Number formatting shared by the writers. */
final class Format {
  private Format() {}

  static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }

  static String count(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1e3);
  }

  static String perSecond(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }

  static String micros(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f µs", value);
  }

  static String percent(double share) {
    return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
  }

  static String megabytes(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f MB", value);
  }

  /** A JSON number, or null for NaN. */
  static String json(double value) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "null"
        : String.format(Locale.ROOT, "%.4f", value);
  }
}
