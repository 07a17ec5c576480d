package dev.once.verify.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * The violation query of one invariant: the file {@code <id>.sql} of the shop's {@code
 * src/test/resources/invariants}, which the build puts on once-verify's class path as {@code
 * shop/invariants} and which the shop's own tests run after every test (those that hold between two
 * tests). One file per invariant is its one definition: a query returns one row per violation, the
 * violating id in its only column.
 */
public final class InvariantSql {
  private static final String FOLDER = "/shop/invariants/";

  private InvariantSql() {}

  /**
   * The query of invariant {@code id}, without its comment lines.
   *
   * @throws IllegalStateException if the jar holds no such file (a build that left them out)
   */
  public static String violations(String id) {
    try (InputStream in = InvariantSql.class.getResourceAsStream(FOLDER + id + ".sql")) {
      if (in == null) {
        throw new IllegalStateException(
            "no " + FOLDER + id + ".sql on the class path: build once-verify with ./mvnw");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.stripLeading().startsWith("--"))
          .collect(Collectors.joining("\n"))
          .strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
