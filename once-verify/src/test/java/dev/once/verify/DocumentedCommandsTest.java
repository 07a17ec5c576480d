package dev.once.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code java -jar once-verify.jar …} that README.md, shop/README.md, docs/*.md and
 * bench/*.sh show still parses: its subcommand exists, and each flag is known and takes the value
 * given (parsing only: the files and servers they name need not exist here).
 */
class DocumentedCommandsTest {
  private static final Path ROOT = Path.of("..");
  private static final String JAR = "once-verify.jar ";

  @Test
  void everyDocumentedInvocationParses() throws IOException {
    List<String> invocations = invocations();
    assertThat(invocations)
        .as("the READMEs, docs and bench show once-verify")
        .hasSizeGreaterThan(10);
    for (String invocation : invocations) {
      String[] args = arguments(invocation);
      assertThatCode(() -> Main.commandLine().parseArgs(args))
          .as(invocation)
          .doesNotThrowAnyException();
    }
  }

  /** The invocations: code lines (no comments, no prose), continuation lines joined. */
  private static List<String> invocations() throws IOException {
    List<Path> files =
        new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("shop/README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"));
        Stream<Path> bench = Files.list(ROOT.resolve("bench"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      bench.filter(p -> p.toString().endsWith(".sh")).sorted().forEach(files::add);
    }
    List<String> invocations = new ArrayList<>();
    for (Path file : files) {
      boolean markdown = file.toString().endsWith(".md");
      boolean code = !markdown;
      String joined = "";
      for (String line : Files.readAllLines(file)) {
        if (markdown && line.startsWith("```")) {
          code = !code;
          continue;
        }
        if (!code || line.strip().startsWith("#")) {
          continue;
        }
        joined += line.endsWith("\\") ? line.substring(0, line.length() - 1) : line;
        if (line.endsWith("\\")) {
          continue;
        }
        if (joined.contains(JAR)) {
          invocations.add(joined.substring(joined.indexOf(JAR) + JAR.length()).strip());
        }
        joined = "";
      }
    }
    return invocations;
  }

  /**
   * The shell words of one invocation, up to its end ({@code ;}, {@code &}, {@code |}, {@code #}).
   */
  private static String[] arguments(String invocation) {
    List<String> args = new ArrayList<>();
    for (String word : invocation.split("\\s+")) {
      if (word.startsWith("#") || word.equals("&") || word.equals("|")) {
        break;
      }
      boolean last = word.endsWith(";") || word.endsWith("&");
      word = last ? word.substring(0, word.length() - 1) : word;
      word = word.replace("\"", "").replace("'", "");
      if (!word.isEmpty() && !word.equals("$@")) {
        args.add(word);
      }
      if (last) {
        break;
      }
    }
    return args.toArray(String[]::new);
  }
}
