package dev.once.verify.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The error for a child process that exited while starting: it names the process, its exit code and
 * its log, and carries the log's last lines, so that a failure on a machine whose temporary files
 * are gone (a CI run) still says why.
 */
public final class StartFailure {
  /** How many of the log's last lines the message carries. */
  static final int TAIL_LINES = 30;

  private StartFailure() {}

  /** {@code what exited with N while starting; see LOG} followed by the log's last lines. */
  public static IOException exited(String what, int exitCode, Path log) {
    return new IOException(
        what + " exited with " + exitCode + " while starting; see " + log + tail(log));
  }

  /** The last {@link #TAIL_LINES} lines of {@code log}, each on its own line; empty if none. */
  static String tail(Path log) {
    List<String> lines;
    try {
      lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return "";
    }
    if (lines.isEmpty()) {
      return "";
    }
    List<String> last = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
    return "\n--- last " + last.size() + " lines of the log ---\n" + String.join("\n", last);
  }
}
