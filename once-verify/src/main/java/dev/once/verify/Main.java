package dev.once.verify;

import dev.once.verify.bench.BenchCli;
import dev.once.verify.chaos.ChaosCli;
import dev.once.verify.check.CheckCli;
import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import dev.once.verify.fingerprint.FingerprintCli;
import dev.once.verify.kafka.KafkaCli;
import dev.once.verify.relay.RelayCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar once-verify.jar <subcommand> [flags]}. Subcommands: {@code bench} (the
 * performance benchmark), {@code chaos} (the guarantees under kills and provider faults), {@code
 * fingerprint} (what Once computes for a request, and why two differ), {@code check} (the shop's
 * invariants over its database), {@code kafka} (a single-node Kafka broker), {@code relay} (the
 * outbox relay's benchmark). Each is a picocli {@code @Command} with its own {@code --help}. Exit
 * codes: 0 done, 1 the run failed or saw unexpected answers, 2 wrong command line (one line on
 * stderr naming the flag and its value).
 */
@Command(
    name = "java -jar once-verify.jar",
    synopsisSubcommandLabel = "<subcommand>",
    usageHelpWidth = 100,
    description = "Verification tools run against a real PostgreSQL and the shop.",
    subcommands = {
      BenchCli.class,
      ChaosCli.class,
      FingerprintCli.class,
      CheckCli.class,
      KafkaCli.class,
      RelayCli.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "Each subcommand's flags: java -jar once-verify.jar <subcommand> --help",
      "Exit: 0 done, 1 the run failed or saw unexpected answers, 2 wrong command line."
    })
public final class Main implements Callable<Integer> {
  @Mixin Cli.Help help;

  private Main() {}

  public static void main(String[] args) {
    // Quiet logging (slf4j-simple): warnings and errors only, unless asked otherwise.
    System.setProperty(
        "org.slf4j.simpleLogger.defaultLogLevel",
        System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    // Kafka's server and clients log a lot at INFO: warnings only, whatever the default.
    for (String kafka : new String[] {"org.apache.kafka", "kafka", "state.change.logger"}) {
      String key = "org.slf4j.simpleLogger.log." + kafka;
      System.setProperty(key, System.getProperty(key, "warn"));
    }
    System.exit(run(args));
  }

  /** No subcommand: the usage on stderr, exit 2. */
  @Override
  public Integer call() {
    System.err.print(usage());
    return 2;
  }

  static int run(String[] args) {
    CommandLine commandLine = commandLine();
    commandLine.setOut(new PrintWriter(System.out, true));
    commandLine.setErr(new PrintWriter(System.err, true));
    return commandLine.execute(args);
  }

  static CommandLine commandLine() {
    CommandLine commandLine = Cli.configure(new CommandLine(new Main()));
    commandLine.setParameterExceptionHandler(Main::wrongCommandLine);
    commandLine.setExecutionExceptionHandler(Main::failed);
    return commandLine;
  }

  static String usage() {
    return commandLine().getUsageMessage();
  }

  /** Picocli's own refusal (an unknown flag, a missing value, a value of the wrong type). */
  private static int wrongCommandLine(ParameterException e, String[] args) {
    return usageError(e.getCommandLine(), e.getMessage());
  }

  private static int usageError(CommandLine command, String message) {
    String name = command.getCommandSpec().parent() == null ? "" : " " + command.getCommandName();
    command
        .getErr()
        .println(
            "once-verify"
                + name
                + ": "
                + message
                + " (see java -jar once-verify.jar"
                + name
                + " --help)");
    return 2;
  }

  /** What a subcommand threw: its own usage errors (2), an interrupt (130), or a failure (1). */
  private static int failed(Exception e, CommandLine command, ParseResult parsed) {
    if (e instanceof UsageException) {
      return usageError(command, e.getMessage());
    }
    PrintWriter err = command.getErr();
    if (e instanceof InterruptedException) {
      err.println("once-verify: interrupted; the shop and PostgreSQL are stopped");
      return 130;
    }
    if (e instanceof IOException || e instanceof SQLException) {
      // Something outside: a process that would not start, a database that cannot be reached.
      err.println("once-verify: failed: " + e.getMessage());
      return 1;
    }
    err.println("once-verify: failed: " + e);
    e.printStackTrace(err);
    err.flush();
    return 1;
  }
}
