package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real chaos runs for tests: the real jars of the shop and psp-simulator, which {@code ./mvnw
 * verify} of the whole build packages before once-verify's integration tests. A test fails when
 * they are absent, with a message that says how to build them ({@code ./mvnw -pl shop,psp-simulator
 * -am package -DskipTests}): a chaos run that did not run proves nothing.
 */
final class ChaosRuns {
  static final Path SHOP = Path.of("../shop/target/shop.jar");
  static final Path SIMULATOR = Path.of("../psp-simulator/target/psp-simulator.jar");

  /** What a run printed and its exit status. */
  record Run(int exit, String text) {}

  private ChaosRuns() {}

  private static final String BUILD =
      "; build the jars first: ./mvnw -q -pl shop,psp-simulator -am package -DskipTests";

  /** Fails the test unless both jars are there. */
  static void requireJars() {
    assertThat(SHOP).as("the shop's jar (" + SHOP.toAbsolutePath() + ")" + BUILD).isRegularFile();
    assertThat(SIMULATOR)
        .as("psp-simulator's jar (" + SIMULATOR.toAbsolutePath() + ")" + BUILD)
        .isRegularFile();
  }

  /** Runs {@code chaos} with the jars and {@code args}, as the command line would. */
  static Run run(String... args) throws Exception {
    List<String> all = new ArrayList<>();
    all.add("--shop-jar");
    all.add(SHOP.toString());
    all.add("--simulator-jar");
    all.add(SIMULATOR.toString());
    all.addAll(List.of(args));
    return runAsIs(all.toArray(new String[0]));
  }

  /** Runs {@code chaos} with exactly {@code args}. */
  static Run runAsIs(String... args) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit =
        new ChaosCommand(
                ChaosOptions.parse(args), new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();
    return new Run(exit, printed.toString(StandardCharsets.UTF_8));
  }

  /** The verdict table's row of {@code check}, or null. */
  static String row(String text, String check) {
    for (String line : text.split("\n")) {
      if (line.contains(check)) {
        return line;
      }
    }
    return null;
  }
}
