package dev.once.psp;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runnable jar's settings: flags ({@code --port 9090} or {@code --port=9090}) win over
 * environment variables ({@code PSP_PORT}), which win over {@link PspSettings#defaults()}.
 */
final class Cli {
  static final int EXIT_USAGE = 2;

  /** A bad flag or value; the jar prints the message and exits {@link #EXIT_USAGE}. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** The flags, without "--"; each also reads the environment variable PSP_<NAME>. */
  private static final List<String> OPTIONS =
      List.of(
          "host",
          "port",
          "latency-ms",
          "error-rate",
          "timeout-rate",
          "lost-answer-rate",
          "timeout-ms",
          "seed",
          "journal");

  private Cli() {}

  private record Setting(String value, String source) {}

  static PspSettings parse(List<String> args, Map<String, String> env) throws UsageException {
    Map<String, Setting> settings = new LinkedHashMap<>();
    for (String option : OPTIONS) {
      String variable = variable(option);
      String value = env.get(variable);
      if (value != null) {
        settings.put(option, new Setting(value, variable));
      }
    }
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String value = null;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      }
      if (!OPTIONS.contains(name)) {
        throw new UsageException("unknown option '--" + name + "'");
      }
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new UsageException("--" + name + " needs a value");
        }
        value = args.get(++i);
      }
      settings.put(name, new Setting(value, "--" + name));
    }

    PspSettings defaults = PspSettings.defaults();
    Faults none = defaults.faults();
    String host = settings.containsKey("host") ? settings.get("host").value() : defaults.host();
    if (host.isBlank()) {
      throw new UsageException(settings.get("host").source() + " must not be blank");
    }
    int port = (int) integer(settings, "port", defaults.port(), 0, 65_535);
    long seed = integer(settings, "seed", defaults.seed(), Long.MIN_VALUE, Long.MAX_VALUE);
    long latencyMs = integer(settings, "latency-ms", none.latencyMs(), 0, Faults.MAX_MILLIS);
    long timeoutMs = integer(settings, "timeout-ms", none.timeoutMs(), 0, Faults.MAX_MILLIS);
    double errorRate = rate(settings, "error-rate", none.errorRate());
    double timeoutRate = rate(settings, "timeout-rate", none.timeoutRate());
    double lostAnswerRate = rate(settings, "lost-answer-rate", none.lostAnswerRate());
    Faults faults;
    try {
      faults = new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
    } catch (InvalidFieldException e) {
      // Only the sum of the rates is left to fail here; each value was checked above.
      throw new UsageException(e.getMessage());
    }
    return new PspSettings(host, port, faults, seed, journal(settings.get("journal")));
  }

  /** The journal's path: not blank, not a directory, in a directory that exists. */
  private static Path journal(Setting setting) throws UsageException {
    if (setting == null) {
      return null;
    }
    if (setting.value().isBlank()) {
      throw new UsageException(setting.source() + " must not be blank");
    }
    Path path;
    try {
      path = Path.of(setting.value()).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw new UsageException(setting.source() + " is not a valid path: " + e.getMessage());
    }
    if (Files.isDirectory(path)) {
      throw new UsageException(
          setting.source() + " must name a file, '" + setting.value() + "' is a directory");
    }
    if (path.getParent() == null || !Files.isDirectory(path.getParent())) {
      throw new UsageException(
          setting.source()
              + " must be in an existing directory, '"
              + path.getParent()
              + "' does not exist");
    }
    return path;
  }

  static String usage() {
    return String.join(
        "\n",
        "Usage: java -jar psp-simulator.jar [--option value | --option=value]...",
        "  --host HOST               address to bind (PSP_HOST, default 127.0.0.1)",
        "  --port PORT               0..65535, 0 = any free port (PSP_PORT, default 0)",
        "  --latency-ms MS           added before each POST answer, 0..600000 (PSP_LATENCY_MS)",
        "  --error-rate RATE         share answered 503, nothing applied, 0..1 (PSP_ERROR_RATE)",
        "  --timeout-rate RATE       share held --timeout-ms then answered 504, nothing applied,"
            + " 0..1 (PSP_TIMEOUT_RATE)",
        "  --lost-answer-rate RATE   share applied and stored but never answered (connection"
            + " closed), 0..1 (PSP_LOST_ANSWER_RATE)",
        "  --timeout-ms MS           how long a timeout holds a request, 0..600000, default 30000"
            + " (PSP_TIMEOUT_MS)",
        "  --seed N                  seed of the fault draws, default 0 (PSP_SEED)",
        "  --journal FILE            append-only file of what was applied, replayed at start so"
            + " that a restart forgets nothing; created if missing (PSP_JOURNAL, default none:"
            + " in memory only)",
        "The three rates must add up to at most 1. Flags win over environment variables.",
        "A bad value exits with status 2; a port that cannot be bound or a journal that cannot be"
            + " read, written or replayed exits with status 1.");
  }

  private static String variable(String option) {
    return "PSP_" + option.replace('-', '_').toUpperCase(Locale.ROOT);
  }

  private static long integer(
      Map<String, Setting> settings, String option, long fallback, long min, long max)
      throws UsageException {
    Setting setting = settings.get(option);
    if (setting == null) {
      return fallback;
    }
    long value;
    try {
      value = Long.parseLong(setting.value().trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          setting.source() + " must be an integer, was '" + setting.value() + "'");
    }
    if (value < min || value > max) {
      throw new UsageException(
          setting.source() + " must be between " + min + " and " + max + ", was " + value);
    }
    return value;
  }

  private static double rate(Map<String, Setting> settings, String option, double fallback)
      throws UsageException {
    Setting setting = settings.get(option);
    if (setting == null) {
      return fallback;
    }
    double value;
    try {
      value = Double.parseDouble(setting.value().trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          setting.source() + " must be a number between 0 and 1, was '" + setting.value() + "'");
    }
    if (!(value >= 0 && value <= 1)) {
      throw new UsageException(
          setting.source() + " must be between 0 and 1, was '" + setting.value() + "'");
    }
    return value;
  }
}
