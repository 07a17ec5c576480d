package dev.once.verify.check;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.SecretFile;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code check}'s command line: the shop's database, how to log in, where to write the report. */
@Command(
    name = "check",
    description = "Evaluates the shop's invariants on its PostgreSQL database (read-only).",
    footer = "Exit: 0 every invariant holds, 1 a violation (or no connection), 2 wrong flags.")
public final class CheckCli extends Subcommand<CheckOptions> {
  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "the shop's database, jdbc:postgresql://HOST:PORT/DB (required)")
  String jdbcUrl;

  @Option(
      names = "--user",
      paramLabel = "U",
      description = "role to connect as (one that may read the shop's and once's tables)")
  String user;

  @Option(
      names = "--password",
      paramLabel = "P",
      description = "its password (visible to ps; prefer --password-file)")
  String password;

  @Option(
      names = "--password-file",
      paramLabel = "F",
      description = {
        "its password, the first line of F (e.g. the embedded database's"
            + " data/postgres/shop_app.password)"
      })
  Path passwordFile;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description = "also write the verdicts as JSON to FILE")
  Path report;

  @Option(names = "--allow-dead", description = "dead outbox rows are a warning, not a failure")
  boolean allowDead;

  /** A database that cannot be reached or read is exit 1, with the driver's message. */
  @Override
  protected int run(CheckOptions options) throws Exception {
    try {
      return new CheckCommand(options).run();
    } catch (SQLException e) {
      System.err.println("once-verify: check: cannot read the database: " + e.getMessage());
      return 1;
    }
  }

  @Override
  public CheckOptions options() throws UsageException {
    String secret =
        passwordFile == null ? password : SecretFile.read("check: --password-file", passwordFile);
    return new CheckOptions(
        Cli.jdbcUrl(Cli.required("--jdbc-url", jdbcUrl)),
        Optional.ofNullable(user),
        Optional.ofNullable(secret),
        Optional.ofNullable(report),
        allowDead);
  }
}
