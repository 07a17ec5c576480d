package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.verify.cli.UsageException;
import dev.once.verify.failover.ReplicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosOptionsTest {
  @Test
  void defaultsAndFlags() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertThat(d.duration()).isEqualTo(Duration.ofMinutes(2));
    assertThat(d.kills()).isEqualTo(3);
    assertThat(d.out()).startsWithRaw(Path.of("chaos-results"));
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--duration",
              "90s",
              "--kills=5",
              "--provider-faults",
              "30",
              "--seed",
              "42",
              "--out",
              "x"
            });
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.kills()).isEqualTo(5);
    assertThat(o.providerFaults()).isEqualTo(30);
    assertThat(o.seed()).isEqualTo(42);
    assertThat(o.out()).isEqualTo(Path.of("x"));
  }

  @Test
  void badFlagsAreUsageErrorsThatNameTheFlagAndTheValue() {
    String[][] cases = {
      {"--kills", "-1"},
      {"--provider-faults", "101"},
      {"--duration", "2x"},
      {"--seed", "a"},
      {"--nope", "1"},
      {"--quiet-timeout", "0s"},
      {"--clients", "0"},
    };
    for (String[] args : cases) {
      assertThatExceptionOfType(UsageException.class)
          .as(String.join(" ", args))
          .isThrownBy(() -> ChaosOptions.parse(args))
          .withMessageContaining(args[0])
          .withMessageContaining(args[1]);
    }
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--kills"}))
        .withMessageContaining("--kills");
  }

  @Test
  void shopsSimulatorKillsAndBrokenMode() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertThat(d.shops()).isEqualTo(1);
    assertThat(d.simulatorKills()).isEqualTo(1);
    assertThat(d.brokenMode()).isEmpty();
    assertThat(d.startsProcesses()).isTrue();
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--shops", "2", "--simulator-kills", "4", "--broken-mode", "provider-key-per-attempt"
            });
    assertThat(o.shops()).isEqualTo(2);
    assertThat(o.simulatorKills()).isEqualTo(4);
    assertThat(o.brokenMode().orElseThrow()).isEqualTo("provider-key-per-attempt");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--shops", "5"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--shops", "0"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--broken-mode", "A;rm"}));
  }

  @Test
  void networkFaultsArePercentOfTheSlots() throws UsageException {
    assertThat(ChaosOptions.parse(new String[0]).networkFaults()).isZero();
    assertThat(ChaosOptions.parse(new String[] {"--network-faults", "20"}).networkFaults())
        .isEqualTo(20);
    for (String bad : new String[] {"101", "-1", "x"}) {
      assertThatExceptionOfType(UsageException.class)
          .isThrownBy(() -> ChaosOptions.parse(new String[] {"--network-faults", bad}))
          .withMessageContaining("--network-faults");
    }
  }

  @Test
  void failoverAndReplication(@TempDir Path dir) throws Exception {
    assertThat(ChaosOptions.parse(new String[0]).replication())
        .isEqualTo(ChaosOptions.Replication.NONE);
    ChaosOptions sync = ChaosOptions.parse(new String[] {"--failover", "2"});
    assertThat(sync.replication().failovers()).isEqualTo(2);
    assertThat(sync.replication().mode()).isEqualTo(ReplicatedPostgres.Mode.SYNC);
    ChaosOptions broken =
        ChaosOptions.parse(new String[] {"--failover", "1", "--replication", "async-unflushed"});
    assertThat(broken.replication().mode()).isEqualTo(ReplicatedPostgres.Mode.ASYNC_UNFLUSHED);
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--replication", "async"}))
        .withMessageContaining("--replication needs --failover");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> ChaosOptions.parse(new String[] {"--failover", "1", "--replication", "quorum"}))
        .withMessageContaining("sync, async or async-unflushed, not quorum");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--failover", "-1"}))
        .withMessageContaining("--failover");
    Path owner = Files.writeString(dir.resolve("owner"), "owner-secret\n");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                ChaosOptions.parse(
                    new String[] {
                      "--failover", "1",
                      "--jdbc-url", "jdbc:postgresql://db/shop",
                      "--db-user", "o",
                      "--db-password-file", owner.toString()
                    }))
        .withMessageContaining("does not go with --jdbc-url or --attach");
  }

  @Test
  void externalDatabaseNeedsOwnerAndKeepsPasswordsOutOfToString(@TempDir Path dir)
      throws Exception {
    Path owner = Files.writeString(dir.resolve("owner"), "owner-secret\n");
    Path app = Files.writeString(dir.resolve("app"), "app-secret\n");
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--jdbc-url", "jdbc:postgresql://db:5432/shop",
              "--db-user", "shop_owner",
              "--db-password-file", owner.toString(),
              "--db-app-user", "shop_app",
              "--db-app-password-file", app.toString()
            });
    ChaosOptions.ExternalDatabase db = o.database().orElseThrow();
    assertThat(db.ownerUser()).isEqualTo("shop_owner");
    assertThat(db.ownerPassword()).isEqualTo("owner-secret");
    assertThat(db.appUser()).isEqualTo("shop_app");
    assertThat(db.appPassword()).isEqualTo("app-secret");
    assertThat(o.toString()).as(o.toString()).doesNotContain("secret");
    ChaosOptions ownerOnly =
        ChaosOptions.parse(
            new String[] {
              "--jdbc-url", "jdbc:postgresql://db/shop",
              "--db-user", "o",
              "--db-password-file", owner.toString()
            });
    assertThat(ownerOnly.database().orElseThrow().appUser()).isEqualTo("o");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> ChaosOptions.parse(new String[] {"--jdbc-url", "jdbc:postgresql://db/shop"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                ChaosOptions.parse(
                    new String[] {
                      "--jdbc-url", "jdbc:mysql://db/shop",
                      "--db-user", "o",
                      "--db-password-file", owner.toString()
                    }));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--db-user", "o"}));
    UsageException missing =
        catchThrowableOfType(
            UsageException.class,
            () ->
                ChaosOptions.parse(
                    new String[] {
                      "--jdbc-url",
                      "jdbc:postgresql://db/shop",
                      "--db-user",
                      "o",
                      "--db-password-file",
                      dir.resolve("nope").toString()
                    }));
    assertThat(missing.getMessage()).as(missing.getMessage()).contains("--db-password-file");
  }

  @Test
  void attachNeedsUrlsTokenAndDatabaseAndNeverKills(@TempDir Path dir) throws Exception {
    Path owner = Files.writeString(dir.resolve("owner"), "pw\n");
    Path token = Files.writeString(dir.resolve("token"), "t0ken-value\n");
    String[] base = {
      "--attach",
      "--shop-url",
      "http://127.0.0.1:8080/",
      "--shop-url",
      "http://127.0.0.1:8081",
      "--simulator-url",
      "http://127.0.0.1:9090",
      "--admin-token-file",
      token.toString(),
      "--jdbc-url",
      "jdbc:postgresql://localhost:5432/shop",
      "--db-user",
      "shop_owner",
      "--db-password-file",
      owner.toString()
    };
    ChaosOptions o = ChaosOptions.parse(base);
    assertThat(o.startsProcesses()).isFalse();
    ChaosOptions.Attach a = o.attach().orElseThrow();
    assertThat(a.shopUrls())
        .isEqualTo(java.util.List.of("http://127.0.0.1:8080", "http://127.0.0.1:8081"));
    assertThat(a.adminToken()).isEqualTo("t0ken-value");
    assertThat(o.kills()).isEqualTo(0);
    assertThat(o.simulatorKills()).isEqualTo(0);
    assertThat(o.shops()).isEqualTo(2);
    assertThat(o.toString()).as(o.toString()).doesNotContain("t0ken-value");
    for (String[] extra :
        new String[][] {{"--kills", "1"}, {"--simulator-kills", "2"}, {"--shops", "2"}}) {
      String[] args = java.util.Arrays.copyOf(base, base.length + 2);
      args[base.length] = extra[0];
      args[base.length + 1] = extra[1];
      assertThatExceptionOfType(UsageException.class)
          .as(extra[0])
          .isThrownBy(() -> ChaosOptions.parse(args));
    }
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                ChaosOptions.parse(
                    new String[] {"--attach", "--shop-url", "http://127.0.0.1:8080"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--shop-url", "http://127.0.0.1:8080"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> ChaosOptions.parse(new String[] {"--attach", "--shop-url", "127.0.0.1:8080"}));
  }

  @Test
  void kafkaTakesBrokerKillsAndNotAttach() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertThat(d.kafka()).isEqualTo(false);
    assertThat(d.brokerKills()).isEqualTo(0);
    ChaosOptions k = ChaosOptions.parse(new String[] {"--kafka"});
    assertThat(k.kafka()).isEqualTo(true);
    assertThat(k.brokerKills()).isEqualTo(1);
    assertThat(ChaosOptions.parse(new String[] {"--kafka", "--broker-kills", "3"}).brokerKills())
        .isEqualTo(3);
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> ChaosOptions.parse(new String[] {"--broker-kills", "1"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                ChaosOptions.parse(
                    new String[] {
                      "--kafka", "--attach", "--jdbc-url", "jdbc:postgresql://db/shop"
                    }));
  }
}
