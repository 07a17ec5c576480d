package dev.once.verify.system;

import dev.once.verify.load.CpuClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CPU clocks of other processes, from {@link ProcessHandle.Info#totalCpuDuration()} (on Linux the
 * user plus system time of {@code /proc/<pid>/stat}). Where the platform does not report it, the
 * clocks answer -1 and the report says "n/a".
 */
public final class ProcessCpu {
  private ProcessCpu() {}

  /** The CPU time of this JVM (the load generator, and the SQL floor's clients). */
  public static CpuClock self() {
    return of(ProcessHandle.current().pid());
  }

  /** The CPU time of one process (all its threads). */
  public static CpuClock of(long pid) {
    return () -> cpuNanos(pid);
  }

  /**
   * The CPU time of a process and all its current children, such as a PostgreSQL postmaster and its
   * backends. Backends come and go: the clock keeps the last value read of every process it has
   * seen, so it never runs backwards; a process that ends between two readings loses only the CPU
   * it spent after the earlier one. Thread-safe.
   */
  public static CpuClock withChildren(long pid) {
    Map<Long, Long> lastSeen = new HashMap<>();
    return () -> {
      synchronized (lastSeen) {
        Optional<ProcessHandle> root = ProcessHandle.of(pid);
        if (root.isEmpty()) {
          return -1;
        }
        long rootCpu = cpuNanos(pid);
        if (rootCpu < 0) {
          return -1;
        }
        lastSeen.put(pid, rootCpu);
        root.get()
            .children()
            .forEach(
                child -> {
                  long cpu = cpuNanos(child.pid());
                  if (cpu >= 0) {
                    lastSeen.merge(child.pid(), cpu, Math::max);
                  }
                });
        long sum = 0;
        for (long cpu : lastSeen.values()) {
          sum += cpu;
        }
        return sum;
      }
    };
  }

  private static long cpuNanos(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(p -> p.info().totalCpuDuration())
        .map(Duration::toNanos)
        .orElse(-1L);
  }
}
