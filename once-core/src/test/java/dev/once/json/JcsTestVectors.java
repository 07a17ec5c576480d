package dev.once.json;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Locates the RFC 8785 test vectors copied into this module's test resources ({@code
 * dev/once/json/jcs}, with their source and licence in its README.md and LICENSE).
 */
final class JcsTestVectors {
  private JcsTestVectors() {}

  /** Returns the folder that holds {@code input/}, {@code output/} and {@code numbers/}. */
  static Path dir() {
    URL readme = JcsTestVectors.class.getResource("jcs/README.md");
    if (readme == null) {
      throw new IllegalStateException("RFC 8785 test vectors missing from the test classpath");
    }
    try {
      return Path.of(readme.toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate " + readme, e);
    }
  }

  /**
   * Returns the 10,000 number vectors, each line {@code hex-ieee,expected}: a double's bit pattern
   * and its ECMAScript form.
   */
  static List<String> numberLines() throws IOException {
    List<String> lines =
        Files.readAllLines(
            dir().resolve("numbers/es6testfile-first-10000.txt"), StandardCharsets.US_ASCII);
    if (lines.size() != 10_000) {
      throw new IllegalStateException("expected 10,000 number vectors but found " + lines.size());
    }
    return lines;
  }
}
