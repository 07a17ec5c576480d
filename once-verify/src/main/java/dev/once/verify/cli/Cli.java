package dev.once.verify.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** What the subcommands' picocli {@code @Command}s share: parsing alone, and the flags given. */
public final class Cli {
  private Cli() {}

  /**
   * Parses {@code args} into {@code command}, a picocli {@code @Command} of one subcommand, without
   * running it (the options tests, and callers that build the options themselves).
   *
   * @throws UsageException with picocli's message when a flag is unknown, lacks its value or has
   *     one of the wrong type
   */
  public static <T> T parse(T command, String... args) throws UsageException {
    try {
      configure(new CommandLine(command)).parseArgs(args);
      return command;
    } catch (ParameterException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** {@code -h} and {@code --help}, the same in every subcommand: {@code @Mixin Cli.Help help}. */
  public static final class Help {
    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "these flags")
    boolean help;
  }

  /**
   * A duration flag: {@code 500ms}, {@code 90s}, {@code 2m}, {@code 1h} or a plain number of
   * seconds; never negative, and zero only where {@code zeroAllowed}.
   */
  public static Duration duration(String flag, String text, boolean zeroAllowed)
      throws UsageException {
    Duration d;
    try {
      if (text.endsWith("ms")) {
        d = Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      } else if (text.endsWith("s")) {
        d = Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      } else if (text.endsWith("m")) {
        d = Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      } else if (text.endsWith("h")) {
        d = Duration.ofHours(Long.parseLong(text.substring(0, text.length() - 1)));
      } else {
        d = Duration.ofSeconds(Long.parseLong(text));
      }
    } catch (NumberFormatException e) {
      throw new UsageException(flag + ": not a duration (e.g. 500ms, 90s, 2m): " + text);
    }
    if (d.isNegative() || (d.isZero() && !zeroAllowed)) {
      throw new UsageException(flag + ": must be positive: " + text);
    }
    return d;
  }

  /** A command whose usage ends with lines that its annotation cannot hold (computed ones). */
  public interface Footer {
    String[] footer();
  }

  /** The usage of {@code command}, as {@code --help} prints it. */
  public static String usage(Object command) {
    return configure(new CommandLine(command)).getUsageMessage();
  }

  /**
   * The parser settings of every subcommand: a flag given twice keeps its last value, as the
   * hand-written parsers did, except in {@code bench}, which refused a repeated flag and still
   * does.
   */
  public static CommandLine configure(CommandLine commandLine) {
    commandLine.setOverwrittenOptionsAllowed(!commandLine.getCommandName().equals("bench"));
    if (commandLine.getCommand() instanceof Subcommand) {
      commandLine
          .getCommandSpec()
          .usageMessage()
          .sortOptions(false)
          .abbreviateSynopsis(true)
          .width(100);
    }
    if (commandLine.getCommand() instanceof Footer footer) {
      commandLine.getCommandSpec().usageMessage().footer(footer.footer());
    }
    for (CommandLine sub : commandLine.getSubcommands().values()) {
      configure(sub);
    }
    return commandLine;
  }

  /** The flags given to the subcommand of {@code spec}, its name left out, for the report. */
  public static List<String> flags(CommandSpec spec) {
    CommandLine.ParseResult result = spec.commandLine().getParseResult();
    if (result == null) {
      return List.of();
    }
    List<String> args = result.originalArgs();
    int at = spec.parent() == null ? -1 : args.indexOf(spec.name());
    return List.copyOf(args.subList(at + 1, args.size()));
  }

  /**
   * {@code text} as a whole number from {@code min} to {@code max}, or a usage error saying {@code
   * error} (the flag, what it takes, the text given).
   */
  public static int integer(String text, int min, int max, String error) throws UsageException {
    try {
      int n = Integer.parseInt(text);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Refused below.
    }
    throw new UsageException(error);
  }

  /** The default results folder: {@code parent}/the UTC time now as {@code pattern} says. */
  public static Path utcFolder(String parent, String pattern) {
    return Path.of(
        parent, ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(pattern)));
  }

  /** The value of a required flag, or the usage error {@code <flag> is required}. */
  public static <T> T required(String flag, T value) throws UsageException {
    if (value == null) {
      throw new UsageException(flag + " is required");
    }
    return value;
  }

  /** A {@code --jdbc-url} of PostgreSQL, or a usage error. */
  public static String jdbcUrl(String url) throws UsageException {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new UsageException("--jdbc-url must start with jdbc:postgresql: " + url);
    }
    return url;
  }

  /** An int flag's value within {@code min} to {@code max}, or a usage error naming both. */
  public static int within(String flag, int value, int min, int max) throws UsageException {
    if (value < min || value > max) {
      throw new UsageException(flag + ": must be " + min + " to " + max + ": " + value);
    }
    return value;
  }

  /**
   * The JVM options of {@code flag} ({@code --shop-jvm}): space-separated, each starting with
   * {@code -}; none when blank.
   */
  public static List<String> jvmOptions(String flag, String value) throws UsageException {
    if (value.isBlank()) {
      return List.of();
    }
    List<String> options = List.of(value.trim().split("\\s+"));
    for (String option : options) {
      if (!option.startsWith("-")) {
        throw new UsageException(flag + " takes JVM options, each starting with '-': " + option);
      }
    }
    return options;
  }
}
