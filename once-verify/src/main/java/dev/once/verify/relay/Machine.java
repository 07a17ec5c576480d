package dev.once.verify.relay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The machine a run measured on, for the table's header (Linux's /proc; "n/a" elsewhere). */
final class Machine {
  private Machine() {}

  static String describe() {
    return String.format(
        Locale.ROOT,
        "%d CPUs (%s), load average at start %s, %s %s (%s), max heap %d MB",
        Runtime.getRuntime().availableProcessors(),
        cpuModel(),
        loadAverage(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vendor"),
        Runtime.getRuntime().maxMemory() >> 20);
  }

  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  private static String cpuModel() {
    try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("n/a");
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }
}
