package dev.once.verify.system;

import dev.once.verify.load.CpuClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The busy CPU time of the whole machine from the first line of {@code /proc/stat} (Linux only), so
 * that a run can tell how much of the cores other processes took while it measured: on a shared
 * machine that is what makes two runs disagree.
 */
public final class MachineCpu {
  private MachineCpu() {}

  /** Busy time of all cores (user, nice, system, irq, softirq, steal); -1 where unreadable. */
  public static CpuClock clock() {
    long nanosPerTick = 1_000_000_000L / clockTicksPerSecond();
    return () -> {
      try {
        List<String> lines = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII);
        long ticks = busyTicks(lines.get(0));
        return ticks < 0 ? -1 : ticks * nanosPerTick;
      } catch (IOException | RuntimeException e) {
        return -1;
      }
    };
  }

  /**
   * {@code clock} minus the sum of {@code ours}: the CPU time of every other process; -1 if any
   * clock is unreadable.
   */
  public static CpuClock others(CpuClock clock, CpuClock... ours) {
    return () -> {
      long total = clock.cpuNanos();
      if (total < 0) {
        return -1;
      }
      for (CpuClock c : ours) {
        long n = c.cpuNanos();
        if (n < 0) {
          return -1;
        }
        total -= n;
      }
      return total;
    };
  }

  /** Busy ticks of the aggregate {@code cpu} line; -1 if it is not one. */
  static long busyTicks(String line) {
    String[] f = line.trim().split("\\s+");
    if (!f[0].equals("cpu") || f.length < 8) {
      return -1;
    }
    long busy = 0;
    // user nice system idle iowait irq softirq steal [guest guest_nice]; guest is within user.
    int[] fields = {1, 2, 3, 6, 7, 8};
    for (int i : fields) {
      if (i < f.length) {
        busy += Long.parseLong(f[i]);
      }
    }
    return busy;
  }

  /** The clock ticks per second of /proc's CPU times (USER_HZ). */
  static long clockTicksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      p.waitFor();
      long hz = Long.parseLong(out);
      return hz > 0 ? hz : 100;
    } catch (IOException | RuntimeException e) {
      return 100; // USER_HZ on every common Linux
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
