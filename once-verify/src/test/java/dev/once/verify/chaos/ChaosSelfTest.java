package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker can fail: real runs against shops started with {@code shop.testing.broken-mode}, each
 * a guarantee switched off on purpose, must end FAIL with the violation in its own row.
 */
class ChaosSelfTest {

  @Test
  void aFreshProviderKeyPerAttemptIsCaughtAsASecondEffectAtTheProvider(@TempDir Path out)
      throws Exception {
    ChaosRuns.assumeJars();
    ChaosRuns.Run run =
        ChaosRuns.run(
            "--broken-mode", "provider-key-per-attempt",
            "--duration", "30s",
            "--kills", "0",
            "--simulator-kills", "0",
            "--provider-faults", "60",
            "--clients", "4",
            "--seed", "3",
            "--out", out.toString());
    String text = run.text();
    assertEquals(1, run.exit(), text);
    String row = ChaosRuns.row(text, "provider: one effect per payment and refund");
    assertNotNull(row, text);
    assertTrue(row.contains("FAIL"), text);
    assertTrue(text.contains("chaos: FAIL"), text);
    assertTrue(Files.readString(out.resolve("report.json")).contains("\"pass\": false"));
  }

  @Test
  void aRowMarkedDeliveredBeforeTheCallIsCaughtAsMoneyLeftPending(@TempDir Path out)
      throws Exception {
    ChaosRuns.assumeJars();
    ChaosRuns.Run run =
        ChaosRuns.run(
            "--broken-mode", "mark-delivered-before-call",
            "--duration", "30s",
            "--kills", "0",
            "--simulator-kills", "0",
            "--provider-faults", "60",
            "--clients", "4",
            "--seed", "4",
            "--quiet-timeout", "20s",
            "--out", out.toString());
    String text = run.text();
    assertEquals(1, run.exit(), text);
    String row = ChaosRuns.row(text, "outbox drained, no payment or refund pending");
    assertNotNull(row, text);
    assertTrue(row.contains("FAIL"), text);
  }
}
