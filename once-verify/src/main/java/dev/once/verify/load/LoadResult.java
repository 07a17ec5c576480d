package dev.once.verify.load;

/**
 * What one scenario measured in its window.
 *
 * @param id short id, e.g. {@code http-once}
 * @param title what was measured, for the table
 * @param workers threads (connections) that ran it
 * @param completed operations that started and ended within the measured window
 * @param windowNanos length of the measured window
 * @param p50Nanos median latency in the window
 * @param p99Nanos 99th-percentile latency in the window
 * @param unexpected operations with an unexpected outcome, warm-up included (must be 0)
 * @param errors operations that failed with an exception, warm-up included (must be 0)
 * @param firstProblem description of the first unexpected outcome or error, or null
 * @param jvmCpuNanos CPU time of the measured JVM (the shop) over the window, or -1
 * @param postgresCpuNanos CPU time of PostgreSQL's processes over the window, or -1
 * @param othersCpuShare share of the machine's cores that processes other than the benchmark, the
 *     shop and PostgreSQL used during the window (0 on a quiet machine), or NaN
 */
public record LoadResult(
    String id,
    String title,
    int workers,
    long completed,
    long windowNanos,
    long p50Nanos,
    long p99Nanos,
    long unexpected,
    long errors,
    String firstProblem,
    long jvmCpuNanos,
    long postgresCpuNanos,
    double othersCpuShare) {

  /** Completed operations per second of the window. */
  public double perSecond() {
    return windowNanos <= 0 ? 0 : completed * 1e9 / windowNanos;
  }

  /** Microseconds of JVM CPU per completed operation, or NaN if unknown. */
  public double jvmCpuMicrosPerOp() {
    return perOp(jvmCpuNanos);
  }

  /** Microseconds of PostgreSQL CPU per completed operation, or NaN if unknown. */
  public double postgresCpuMicrosPerOp() {
    return perOp(postgresCpuNanos);
  }

  /** True if every operation, warm-up included, had the expected outcome. */
  public boolean clean() {
    return unexpected == 0 && errors == 0;
  }

  private double perOp(long cpuNanos) {
    return cpuNanos < 0 || completed == 0 ? Double.NaN : cpuNanos / 1e3 / completed;
  }
}
