package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code chaos --failover}: the database primary SIGKILLed under load and its standby promoted.
 * With a synchronous standby every check passes, nothing acknowledged is lost, and the shop answers
 * 201 again after the failover; with the broken mode (an asynchronous standby, {@code
 * synchronous_commit=off}, a WAL writer that flushes every 10 s) the checker catches the lost
 * acknowledgements in a row of their own, with their keys and the failover they crossed.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a chaos run waits on processes and on the outbox
class FailoverChaosIT {

  @Test
  void aFailoverOntoASynchronousStandbyUnderLoadLosesNothing(@TempDir Path out) throws Exception {
    ChaosRuns.requireJars();
    ChaosRuns.Run run =
        ChaosRuns.run(
            "--failover", "1",
            "--duration", "20s",
            "--kills", "0",
            "--simulator-kills", "0",
            "--provider-faults", "10",
            "--clients", "6",
            "--seed", "19", // the failover at 43 % of the run: 8.6 s of load before, 11.4 s after
            "--out", out.toString());
    String text = run.text();
    assertThat(run.exit()).as(text).isZero();
    assertThat(text).contains("kill -9 of the database primary a", "streams again as the standby");
    JsonNode facts = Json.mapper().readTree(Files.readString(out.resolve("report.json")));
    JsonNode lost = verdict(facts, "acknowledged before a failover");
    assertThat(lost.path("verdict").asString()).as(lost.toString()).isEqualTo("PASS");
    assertThat(lost.path("checked").asLong()).as(lost.toString()).isPositive();
    JsonNode failover = facts.path("run").path("failovers").path(0);
    assertThat(failover.path("from").asString()).as(facts.toString()).startsWith("a ");
    assertThat(failover.path("to").asString()).startsWith("b ");
    assertThat(failover.path("first 201 after s").isNumber()).as(failover.toString()).isTrue();
    assertThat(failover.path("other 5xx until then").asLong(-1)).isZero();
    assertThat(facts.path("run").path("5xx other than 503").asLong(-1))
        .as(facts.toString())
        .isZero();
    assertThat(facts.path("run").path("failovers done").asInt()).isEqualTo(1);
  }

  private static JsonNode verdict(JsonNode report, String name) {
    for (JsonNode v : report.path("verdicts")) {
      if (v.path("name").asString().startsWith(name)) {
        return v;
      }
    }
    throw new AssertionError("no verdict " + name + " in " + report);
  }

  @Test
  void theBrokenModesLostAcknowledgementsAreCaughtWithTheirFailover(@TempDir Path out)
      throws Exception {
    ChaosRuns.requireJars();
    ChaosRuns.Run run =
        ChaosRuns.run(
            "--failover", "1",
            "--replication", "async-unflushed",
            "--duration", "14s",
            "--kills", "0",
            "--simulator-kills", "0",
            "--clients", "6",
            "--seed", "33", // the failover at 42 % of the run, after 5.9 s of load
            "--out", out.toString());
    String text = run.text();
    assertThat(run.exit()).as(text).isEqualTo(1);
    String row = ChaosRuns.row(text, "acknowledged before a failover");
    assertThat(row).as(text).contains("FAIL", "key chaos-33-", "before failover 1, a (port");
    assertThat(text).contains("chaos: FAIL");
  }
}
