package dev.once.verify.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary folders of a run's servers. */
public final class Folders {
  private Folders() {}

  /**
   * Deletes what is inside {@code folder}, deepest first, and the folder too unless {@code
   * keepFolder}.
   *
   * @throws IOException if something cannot be deleted
   */
  public static void empty(Path folder, boolean keepFolder) throws IOException {
    try (Stream<Path> tree = Files.walk(folder)) {
      for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
        if (!keepFolder || !p.equals(folder)) {
          Files.delete(p);
        }
      }
    }
  }

  /** Deletes {@code folder} and all in it; what cannot be deleted is reported on standard error. */
  public static void delete(Path folder) {
    try {
      empty(folder, false);
    } catch (IOException | java.io.UncheckedIOException e) {
      System.err.println("could not delete " + folder + ": " + e);
    }
  }
}
