package dev.once.verify.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Resident memory of a process from {@code /proc/<pid>/status} (Linux only).
 *
 * @param rssBytes {@code VmRSS}: resident now
 * @param peakRssBytes {@code VmHWM}: the most it was resident
 */
public record ProcessMemory(long rssBytes, long peakRssBytes) {

  /** Read now; null where {@code /proc} is not there or the process has ended. */
  public static ProcessMemory read(long pid) {
    try {
      return parse(Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Parses the lines of a {@code /proc/<pid>/status} file; null if the two fields are missing. */
  static ProcessMemory parse(List<String> lines) {
    long rss = -1;
    long hwm = -1;
    for (String line : lines) {
      if (line.startsWith("VmRSS:")) {
        rss = kilobytes(line);
      } else if (line.startsWith("VmHWM:")) {
        hwm = kilobytes(line);
      }
    }
    return rss < 0 || hwm < 0 ? null : new ProcessMemory(rss, hwm);
  }

  private static long kilobytes(String line) {
    // "VmRSS:\t  123456 kB"
    String[] parts = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
    return Long.parseLong(parts[0]) * 1024;
  }

  public double rssMegabytes() {
    return rssBytes / (1024.0 * 1024.0);
  }

  public double peakRssMegabytes() {
    return peakRssBytes / (1024.0 * 1024.0);
  }
}
