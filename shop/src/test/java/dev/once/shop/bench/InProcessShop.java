package dev.once.shop.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The arguments of a benchmark's shop in its own JVM. */
final class InProcessShop {
  private InProcessShop() {}

  /**
   * A free port, {@code adminToken}, the admin token file and the embedded PostgreSQL in {@code
   * data}, WARN logging, no banner, then {@code more}; a list the caller may add to.
   */
  static List<String> args(String adminToken, Path data, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--server.port=0",
                "--shop.admin-token=" + adminToken,
                "--shop.admin-token-file=" + data.resolve("admin-token"),
                "--once.embedded-postgres.data-dir=" + data.resolve("pg"),
                "--logging.level.root=WARN",
                "--spring.main.banner-mode=off"));
    args.addAll(List.of(more));
    return args;
  }
}
