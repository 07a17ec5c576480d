package dev.once.verify.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A secret read from the first line of a file, so that neither the shell history nor {@code ps}
 * shows it (for example the embedded database's {@code data/postgres/shop_app.password}).
 */
public final class SecretFile {
  private SecretFile() {}

  /**
   * The first line of {@code file}, trimmed.
   *
   * @param what how the command line names it in errors, e.g. {@code check: --password-file}
   * @throws UsageException if the file is unreadable or its first line is empty
   */
  public static String read(String what, Path file) throws UsageException {
    try {
      String first =
          Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("").trim();
      if (first.isEmpty()) {
        throw new UsageException(what + " is empty: " + file);
      }
      return first;
    } catch (IOException e) {
      throw new UsageException("cannot read " + what + " " + file + ": " + e);
    }
  }
}
