package dev.once.json;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

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
}
