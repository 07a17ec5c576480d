package dev.once.verify.chaos;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.harness.ShopLogin;
import dev.once.verify.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Real chaos runs against the real jars (see {@link ChaosRuns}): the short seeded run CI must pass,
 * two shops on one external PostgreSQL with kills of both shops and of psp-simulator, 30% provider
 * faults, and network faults on the shops' routes to PostgreSQL and the provider in 40% of the
 * run's 5-second slots. A run attached to processes it did not start, and a database that is not
 * empty, are {@link AttachedChaosIT} (a class of its own, so that it runs beside this one).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES) // a chaos run waits on processes and on the outbox
class ChaosIntegrationIT {

  @Test
  void twoShopsOnOneExternalPostgresThroughKillsProviderAndNetworkFaultsPass(@TempDir Path dir)
      throws Exception {
    ChaosRuns.requireJars();
    try (ChaosDatabase db = ChaosDatabase.start()) {
      ShopLogin login = db.login();
      Path owner = Files.writeString(dir.resolve("owner.password"), login.ownerPassword());
      Path app = Files.writeString(dir.resolve("app.password"), login.appPassword());
      Path out = dir.resolve("report");
      ChaosRuns.Run run =
          ChaosRuns.run(
              "--jdbc-url", login.jdbcUrl(),
              "--db-user", login.ownerUser(),
              "--db-password-file", owner.toString(),
              "--db-app-user", login.appUser(),
              "--db-app-password-file", app.toString(),
              "--shops", "2",
              "--duration", "60s",
              "--kills", "3",
              "--simulator-kills", "1",
              "--provider-faults", "30",
              "--network-faults", "40",
              "--clients", "6",
              "--seed", "11",
              "--out", out.toString());
      String text = run.text();
      assertThat(run.exit()).as(text).isEqualTo(0);
      assertThat(text).as("every planned kill happened: " + text).contains("(4 of 4)");
      assertThat(text).as(text).contains("kill -9 of psp-simulator");
      assertThat(text.contains("kill -9 of shop 1") || text.contains("kill -9 of shop 2"))
          .as(text)
          .isTrue();
      assertThat(text)
          .as("check's invariants are appended: " + text)
          .contains("db: account-balance");
      String json = Files.readString(out.resolve("report.json"));
      JsonNode report = Json.mapper().readTree(json);
      assertThat(report.path("pass").asBoolean()).as(json).isTrue();
      assertThat(report.at("/run/shop kills done").asInt()).as(json).isEqualTo(3);
      assertThat(report.at("/run/psp-simulator kills done").asInt()).as(json).isEqualTo(1);
      int planned = report.at("/run/network faults planned").asInt();
      assertThat(planned)
          .as(json)
          .isEqualTo(
              NetworkFaults.plan(11, 40, 2, NetworkFaults.DEPENDENCIES, ofSeconds(60)).size());
      int done = 0;
      for (NetworkFaults.Kind kind : NetworkFaults.Kind.values()) {
        int ofKind = report.at("/run/network faults done: " + kind.name().toLowerCase()).asInt();
        assertThat(ofKind).as("the seed's plan applies every kind of fault: " + kind).isPositive();
        done += ofKind;
      }
      assertThat(done).as(json).isEqualTo(planned).isPositive();
      assertThat(text).contains("network: ");
      assertThat(Files.readString(out.resolve("summary.md"))).contains("| PASS |");
      assertThat(Files.isRegularFile(out.resolve("logs/shop-2.log"))).isTrue();
      assertThat(Files.size(out.resolve("logs/simulator.journal")) > 0).isTrue();
    }
  }
}
