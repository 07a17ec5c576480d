package dev.once.verify.check;

import dev.once.verify.SecretFile;
import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Flags of {@code check}.
 *
 * @param jdbcUrl the shop's database, for example {@code jdbc:postgresql://localhost:5432/shop}
 * @param user the role to connect as, or empty for the URL's or the driver's default
 * @param password its password, or empty
 * @param report where to write the JSON report, or empty for none
 * @param allowDead whether dead outbox rows are only a warning
 */
public record CheckOptions(
    String jdbcUrl,
    Optional<String> user,
    Optional<String> password,
    Optional<Path> report,
    boolean allowDead) {

  /** Parses the flags after {@code check}. */
  public static CheckOptions parse(String[] args) throws UsageException {
    String jdbcUrl = null;
    String user = null;
    String password = null;
    Path report = null;
    boolean allowDead = false;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      switch (flag) {
        case "--jdbc-url" -> jdbcUrl = value(args, ++i, flag);
        case "--user" -> user = value(args, ++i, flag);
        case "--password" -> password = value(args, ++i, flag);
        case "--password-file" ->
            password = SecretFile.read("check: --password-file", Path.of(value(args, ++i, flag)));
        case "--report" -> report = Path.of(value(args, ++i, flag));
        case "--allow-dead" -> allowDead = true;
        default ->
            throw new UsageException("check: unknown flag: " + flag + " (flags: check --help)");
      }
    }
    if (jdbcUrl == null) {
      throw new UsageException("check: --jdbc-url is required (flags: check --help)");
    }
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new UsageException("check: --jdbc-url must start with jdbc:postgresql: " + jdbcUrl);
    }
    return new CheckOptions(
        jdbcUrl,
        Optional.ofNullable(user),
        Optional.ofNullable(password),
        Optional.ofNullable(report),
        allowDead);
  }

  private static String value(String[] args, int i, String flag) throws UsageException {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new UsageException("check: " + flag + " needs a value");
    }
    return args[i];
  }

  public static String usage() {
    return "check: evaluates the shop's invariants on its PostgreSQL database (read-only)\n"
        + "  --jdbc-url URL    the shop's database, jdbc:postgresql://HOST:PORT/DB (required)\n"
        + "  --user U          role to connect as (one that may read the shop's and once's tables)\n"
        + "  --password P      its password (visible to ps; prefer --password-file)\n"
        + "  --password-file F its password, the first line of F (e.g. the embedded database's\n"
        + "                    data/postgres/shop_app.password)\n"
        + "  --report FILE     also write the verdicts as JSON to FILE\n"
        + "  --allow-dead      dead outbox rows are a warning, not a failure\n"
        + "  Exit: 0 every invariant holds, 1 a violation (or no connection), 2 wrong flags.\n";
  }
}
