package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker can fail: real runs against shops started with {@code shop.testing.broken-mode}, each
 * a guarantee switched off on purpose, must end FAIL with the violation in its own row. The Kafka
 * path's self-test is {@link KafkaChaosSelfIT}, a class of its own so that it runs beside these
 * (each integration-test JVM takes whole classes).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a chaos run waits on processes and on the outbox
class ChaosSelfIT {

  @Test
  void aFreshProviderKeyPerAttemptIsCaughtAsASecondEffectAtTheProvider(@TempDir Path out)
      throws Exception {
    String text =
        failingRun(
            "provider-key-per-attempt", "provider: one effect per payment and refund", 3, out);
    assertThat(text).as("names the payments applied twice: " + text).contains("effects)");
  }

  @Test
  void aRowMarkedDeliveredBeforeTheCallIsCaughtAsMoneyLeftPending(@TempDir Path out)
      throws Exception {
    String text =
        failingRun(
            "mark-delivered-before-call",
            "outbox drained, no payment or refund pending",
            4,
            out,
            "--quiet-timeout",
            "20s");
    assertThat(text).as(text).contains("chaos: run incomplete: not quiet within");
  }

  /**
   * A 30-second run, no kills, 60% provider faults, against shops in {@code mode}: exit 1, the row
   * {@code check} FAIL, the report's pass false. Returns what it printed.
   */
  private static String failingRun(String mode, String check, long seed, Path out, String... more)
      throws Exception {
    ChaosRuns.requireJars();
    List<String> args =
        new ArrayList<>(
            List.of(
                "--broken-mode", mode,
                "--duration", "30s",
                "--kills", "0",
                "--simulator-kills", "0",
                "--provider-faults", "60",
                "--clients", "4",
                "--seed", Long.toString(seed),
                "--out", out.toString()));
    args.addAll(List.of(more));
    ChaosRuns.Run run = ChaosRuns.run(args.toArray(new String[0]));
    String text = run.text();
    assertThat(run.exit()).as(text).isEqualTo(1);
    String row = ChaosRuns.row(text, check);
    assertThat(row).as(text).isNotNull();
    assertThat(row).as(row).contains("FAIL");
    assertThat(text).as(text).contains("chaos: FAIL");
    String report = Files.readString(out.resolve("report.json"));
    assertThat(Json.mapper().readTree(report).path("pass").asBoolean(true)).as(report).isFalse();
    return text;
  }
}
