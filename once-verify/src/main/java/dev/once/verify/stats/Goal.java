package dev.once.verify.stats;

/**
 * A measured value against its goal: a ratio that must reach at least the goal, or a size that must
 * stay at most the goal. The value is {@link Double#NaN} when it could not be measured (a scenario
 * not run, a platform without /proc); such a goal is neither met nor missed.
 *
 * @param name what is compared, e.g. {@code "HTTP Once on / Once off"}
 * @param value the measured value, or NaN
 * @param goal the goal
 * @param atLeast true if the value must be at least the goal, false if at most
 * @param unit {@code ""} for a ratio, or a unit such as {@code "MB"}
 */
public record Goal(String name, double value, double goal, boolean atLeast, String unit) {

  /** Outcome of a comparison. */
  public enum Verdict {
    PASS,
    MISS,
    NOT_MEASURED
  }

  /** {@code numerator / denominator} against {@code goal} (at least); NaN if either is missing. */
  public static Goal ratio(String name, double numerator, double denominator, double goal) {
    double value =
        Double.isNaN(numerator) || Double.isNaN(denominator) || denominator <= 0
            ? Double.NaN
            : numerator / denominator;
    return new Goal(name, value, goal, true, "");
  }

  /** A value that must stay at most {@code goal}. */
  public static Goal atMost(String name, double value, double goal, String unit) {
    return new Goal(name, value, goal, false, unit);
  }

  public Verdict verdict() {
    if (Double.isNaN(value)) {
      return Verdict.NOT_MEASURED;
    }
    boolean met = atLeast ? value >= goal : value <= goal;
    return met ? Verdict.PASS : Verdict.MISS;
  }

  /** The goal as text, e.g. {@code "≥ 0.85"} or {@code "≤ 300 MB"}. */
  public String goalText() {
    return (atLeast ? "≥ " : "≤ ") + format(goal) + (unit.isEmpty() ? "" : " " + unit);
  }

  /** The value as text, e.g. {@code "0.91"} or {@code "212 MB"}, or {@code "n/a"}. */
  public String valueText() {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return format(value) + (unit.isEmpty() ? "" : " " + unit);
  }

  private String format(double v) {
    return unit.isEmpty()
        ? String.format(java.util.Locale.ROOT, "%.2f", v)
        : Long.toString(Math.round(v));
  }
}
