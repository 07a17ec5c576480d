package dev.once.verify.check;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
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

  /** Parses the flags after {@code check} ({@link CheckCli}). */
  public static CheckOptions parse(String[] args) throws UsageException {
    return Cli.parse(new CheckCli(), args).options();
  }

  /** {@code check --help}: the flags and the exit codes. */
  public static String usage() {
    return Cli.usage(new CheckCli());
  }
}
