package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real 20-second chaos run with 2 kills and 30% provider faults against the real jars. Skipped
 * when they are absent: {@code mvn verify} of once-verify alone does not build them (build them
 * with {@code ./mvnw -pl shop,psp-simulator -am package -DskipTests}).
 */
class ChaosIntegrationTest {
  private static final Path SHOP = Path.of("../shop/target/shop.jar");
  private static final Path SIMULATOR = Path.of("../psp-simulator/target/psp-simulator.jar");

  @Test
  void aShortRunWithKillsAndProviderFaultsPasses(@TempDir Path out) throws Exception {
    assumeTrue(Files.isRegularFile(SHOP), "no " + SHOP + "; build the shop's jar first");
    assumeTrue(Files.isRegularFile(SIMULATOR), "no " + SIMULATOR + "; build psp-simulator first");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit =
        new ChaosCommand(
                ChaosOptions.parse(
                    new String[] {
                      "--shop-jar", SHOP.toString(),
                      "--simulator-jar", SIMULATOR.toString(),
                      "--duration", "20s",
                      "--kills", "2",
                      "--provider-faults", "30",
                      "--clients", "4",
                      "--seed", "11",
                      "--out", out.toString()
                    }),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();
    String text = printed.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, text);
    assertTrue(text.contains("kill -9 of the shop (2 of 2)"), text);
    assertTrue(text.contains("db: account-balance"), "check's invariants are appended: " + text);
    assertTrue(Files.readString(out.resolve("report.json")).contains("\"pass\": true"));
    assertTrue(Files.readString(out.resolve("summary.md")).contains("| PASS |"));
  }
}
