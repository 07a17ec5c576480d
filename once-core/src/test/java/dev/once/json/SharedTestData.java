package dev.once.json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Locates the shared RFC 8785 test vectors (see shared/testdata/jcs/README.md). */
final class SharedTestData {
  private SharedTestData() {}

  /** Returns {@code <shared>/testdata/jcs}, failing loudly if it cannot be found. */
  static Path jcsDir() {
    String property = System.getProperty("once.shared.dir");
    Path[] candidates = {
      property == null ? null : Paths.get(property),
      Paths.get("../../shared"),
      Paths.get("../shared")
    };
    StringBuilder tried = new StringBuilder();
    for (Path candidate : candidates) {
      if (candidate == null) {
        continue;
      }
      Path jcs = candidate.resolve("testdata").resolve("jcs").toAbsolutePath().normalize();
      if (Files.isDirectory(jcs)) {
        return jcs;
      }
      tried.append(' ').append(jcs);
    }
    throw new IllegalStateException(
        "RFC 8785 test vectors not found; set -Donce.shared.dir. Tried:" + tried);
  }
}
