package dev.once.verify.system;

import dev.once.verify.load.CpuClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
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

  /**
   * The CPU time of a process with that of the children it has reaped ({@code /proc/<pid>/stat}
   * utime, stime, cutime, cstime), plus that of its live children: unlike {@link #withChildren}, it
   * keeps the CPU of children that ended in between, such as PostgreSQL's backends of a shop that
   * closed, once their parent reaped them. In nanoseconds, counted in /proc's clock ticks (10 ms);
   * -1 off Linux or once the process is gone.
   */
  public static CpuClock withReapedChildren(long pid) {
    long nanosPerTick = 1_000_000_000L / MachineCpu.clockTicksPerSecond();
    return () -> {
      long ticks = ticks(pid);
      if (ticks < 0) {
        return -1;
      }
      for (ProcessHandle child :
          ProcessHandle.of(pid).map(p -> p.children().toList()).orElse(List.of())) {
        ticks += Math.max(0, ticks(child.pid()));
      }
      return ticks * nanosPerTick;
    };
  }

  /** utime + stime + cutime + cstime of /proc/{@code pid}/stat, or -1. */
  private static long ticks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command (field 2) is in parentheses and may hold spaces: count from the last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // f[0] is field 3 (state); utime is field 14, stime 15, cutime 16, cstime 17.
      return Long.parseLong(f[11])
          + Long.parseLong(f[12])
          + Long.parseLong(f[13])
          + Long.parseLong(f[14]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static long cpuNanos(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(p -> p.info().totalCpuDuration())
        .map(Duration::toNanos)
        .orElse(-1L);
  }
}
