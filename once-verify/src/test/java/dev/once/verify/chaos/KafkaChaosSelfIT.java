package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker can fail on the Kafka path: shops that commit a record's offset before the
 * transaction that applies it lose the events of the records they were killed between, and the run
 * must end FAIL in the row of events never consumed.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a chaos run waits on processes and on the outbox
class KafkaChaosSelfIT {

  @Test
  void offsetsCommittedBeforeTheTransactionAreCaughtAsEventsNeverConsumed(@TempDir Path out)
      throws Exception {
    ChaosRuns.requireJars();
    ChaosRuns.Run run =
        ChaosRuns.run(
            "--kafka",
            "--broken-mode",
            "commit-offset-before-transaction",
            "--duration",
            "60s",
            "--kills",
            "2",
            "--simulator-kills",
            "0",
            "--broker-kills",
            "0",
            "--clients",
            "4",
            "--seed",
            "5",
            "--out",
            out.toString());
    String text = run.text();
    assertThat(run.exit()).as(text).isEqualTo(1);
    String row = ChaosRuns.row(text, "kafka: every event on the wire consumed by its consumer");
    assertThat(row).as(text).isNotNull();
    assertThat(row).as(row).contains("FAIL");
    assertThat(text).as(text).contains("chaos: FAIL");
  }
}
