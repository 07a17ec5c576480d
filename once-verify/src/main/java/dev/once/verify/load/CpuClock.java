package dev.once.verify.load;

/** A cumulative CPU-time counter of some processes, sampled at the edges of a measured window. */
@FunctionalInterface
public interface CpuClock {
  /** A clock that knows nothing: every window's CPU is unknown. */
  CpuClock NONE = () -> -1;

  /** CPU time consumed so far in nanoseconds, or -1 if it cannot be read. */
  long cpuNanos();
}
