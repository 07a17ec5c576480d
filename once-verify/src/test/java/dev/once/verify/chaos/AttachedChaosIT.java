package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.verify.harness.ShopLogin;
import dev.once.verify.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chaos runs on an external PostgreSQL that it did not prepare: a run attached to processes it did
 * not start (it drives and checks them, and kills nothing), and a database that already holds data,
 * which it refuses.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES) // a chaos run waits on processes and on the outbox
class AttachedChaosIT {

  @Test
  void aDatabaseThatAlreadyHoldsDataIsRefused(@TempDir Path dir) throws Exception {
    ChaosRuns.requireJars();
    try (ChaosDatabase db = ChaosDatabase.start()) {
      ShopLogin login = db.login();
      try (java.sql.Connection c = db.connect();
          java.sql.Statement s = c.createStatement()) {
        s.execute("CREATE TABLE client (id text)");
        s.execute("INSERT INTO client VALUES ('cli_1')");
      }
      Path owner = Files.writeString(dir.resolve("owner.password"), login.ownerPassword());
      dev.once.verify.cli.UsageException refused =
          catchThrowableOfType(
              dev.once.verify.cli.UsageException.class,
              () ->
                  ChaosRuns.run(
                      "--jdbc-url", login.jdbcUrl(),
                      "--db-user", login.ownerUser(),
                      "--db-password-file", owner.toString(),
                      "--out", dir.resolve("report").toString()));
      assertThat(refused.getMessage()).as(refused.getMessage()).contains("needs an empty database");
    }
  }

  @Test
  void attachedToRunningProcessesItDrivesAndChecksWithoutKillingTwiceOnOneDatabase(
      @TempDir Path dir) throws Exception {
    ChaosRuns.requireJars();
    String token = "attach-test-admin-token-0123456789";
    try (ChaosDatabase db = ChaosDatabase.start();
        Processes running =
            new Processes(
                ChaosRuns.SHOP,
                ChaosRuns.SIMULATOR,
                db,
                token,
                dir.resolve("logs"),
                5,
                1,
                null,
                false,
                null)) {
      running.startSimulator();
      running.startShops();
      ShopLogin login = db.login();
      Path owner = Files.writeString(dir.resolve("owner.password"), login.ownerPassword());
      Path tokenFile = Files.writeString(dir.resolve("admin.token"), token);
      // Twice on the same processes: the second run shares the database with the first, whose
      // clients, orders and products its checks of its own requests must leave aside.
      for (int seed = 5; seed <= 6; seed++) {
        Path out = dir.resolve("report-" + seed);
        ChaosRuns.Run run =
            ChaosRuns.runAsIs(
                "--attach",
                "--shop-url",
                running.shopUrls().get(0),
                "--simulator-url",
                running.simulatorUrl(),
                "--admin-token-file",
                tokenFile.toString(),
                "--jdbc-url",
                login.jdbcUrl(),
                "--db-user",
                login.ownerUser(),
                "--db-password-file",
                owner.toString(),
                "--duration",
                "12s",
                "--provider-faults",
                "20",
                "--clients",
                "3",
                "--seed",
                Integer.toString(seed),
                "--out",
                out.toString());
        String text = run.text();
        assertThat(run.exit()).as(text).isEqualTo(0);
        assertThat(text).as(text).contains("attached to shops [" + running.shopUrls().get(0));
        assertThat(!text.contains("kill -9")).as(text).isTrue();
        String report = Files.readString(out.resolve("report.json"));
        assertThat(Json.mapper().readTree(report).path("pass").asBoolean()).as(report).isTrue();
      }
    }
  }
}
