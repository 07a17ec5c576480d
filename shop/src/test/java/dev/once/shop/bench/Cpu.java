package dev.once.shop.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of this JVM and of other processes (Linux's /proc), for per-event CPU figures. */
final class Cpu {
  /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
  static final int TICKS_PER_SECOND = 100;

  private Cpu() {}

  /** This JVM's process CPU time (every thread, user and system), ns; -1 if unknown. */
  static long jvmNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * Fields of /proc/{@code pid}/stat: ppid, utime, stime, cutime, cstime (clock ticks); null if the
   * process is gone or /proc cannot be read.
   */
  static long[] procStat(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command (field 2) is in parentheses and may hold spaces: count from the last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
      return new long[] {
        Long.parseLong(f[1]),
        Long.parseLong(f[11]),
        Long.parseLong(f[12]),
        Long.parseLong(f[13]),
        Long.parseLong(f[14])
      };
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
