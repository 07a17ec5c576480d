package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosOptionsTest {
  @Test
  void defaultsAndFlags() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertEquals(Duration.ofMinutes(2), d.duration());
    assertEquals(3, d.kills());
    assertTrue(d.out().startsWith("chaos-results"));
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
    assertEquals(Duration.ofSeconds(90), o.duration());
    assertEquals(5, o.kills());
    assertEquals(30, o.providerFaults());
    assertEquals(42, o.seed());
    assertEquals(Path.of("x"), o.out());
  }

  @Test
  void badFlagsAreUsageErrors() {
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--kills", "-1"}));
    assertThrows(
        UsageException.class, () -> ChaosOptions.parse(new String[] {"--provider-faults", "101"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--duration", "2x"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--seed", "a"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--nope", "1"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--kills"}));
  }

  @Test
  void shopsSimulatorKillsAndBrokenMode() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertEquals(1, d.shops());
    assertEquals(1, d.simulatorKills());
    assertTrue(d.brokenMode().isEmpty());
    assertTrue(d.startsProcesses());
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--shops", "2", "--simulator-kills", "4", "--broken-mode", "provider-key-per-attempt"
            });
    assertEquals(2, o.shops());
    assertEquals(4, o.simulatorKills());
    assertEquals("provider-key-per-attempt", o.brokenMode().orElseThrow());
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--shops", "5"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--shops", "0"}));
    assertThrows(
        UsageException.class, () -> ChaosOptions.parse(new String[] {"--broken-mode", "A;rm"}));
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
    assertEquals("shop_owner", db.ownerUser());
    assertEquals("owner-secret", db.ownerPassword());
    assertEquals("shop_app", db.appUser());
    assertEquals("app-secret", db.appPassword());
    assertFalse(o.toString().contains("secret"), o.toString());
    ChaosOptions ownerOnly =
        ChaosOptions.parse(
            new String[] {
              "--jdbc-url", "jdbc:postgresql://db/shop",
              "--db-user", "o",
              "--db-password-file", owner.toString()
            });
    assertEquals("o", ownerOnly.database().orElseThrow().appUser());
    assertThrows(
        UsageException.class,
        () -> ChaosOptions.parse(new String[] {"--jdbc-url", "jdbc:postgresql://db/shop"}));
    assertThrows(
        UsageException.class,
        () ->
            ChaosOptions.parse(
                new String[] {
                  "--jdbc-url", "jdbc:mysql://db/shop",
                  "--db-user", "o",
                  "--db-password-file", owner.toString()
                }));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--db-user", "o"}));
    UsageException missing =
        assertThrows(
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
    assertTrue(missing.getMessage().contains("--db-password-file"), missing.getMessage());
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
    assertFalse(o.startsProcesses());
    ChaosOptions.Attach a = o.attach().orElseThrow();
    assertEquals(java.util.List.of("http://127.0.0.1:8080", "http://127.0.0.1:8081"), a.shopUrls());
    assertEquals("t0ken-value", a.adminToken());
    assertEquals(0, o.kills());
    assertEquals(0, o.simulatorKills());
    assertEquals(2, o.shops());
    assertFalse(o.toString().contains("t0ken-value"), o.toString());
    for (String[] extra :
        new String[][] {{"--kills", "1"}, {"--simulator-kills", "2"}, {"--shops", "2"}}) {
      String[] args = java.util.Arrays.copyOf(base, base.length + 2);
      args[base.length] = extra[0];
      args[base.length + 1] = extra[1];
      assertThrows(UsageException.class, () -> ChaosOptions.parse(args), extra[0]);
    }
    assertThrows(
        UsageException.class,
        () -> ChaosOptions.parse(new String[] {"--attach", "--shop-url", "http://127.0.0.1:8080"}));
    assertThrows(
        UsageException.class,
        () -> ChaosOptions.parse(new String[] {"--shop-url", "http://127.0.0.1:8080"}));
    assertThrows(
        UsageException.class,
        () -> ChaosOptions.parse(new String[] {"--attach", "--shop-url", "127.0.0.1:8080"}));
  }

  @Test
  void kafkaTakesBrokerKillsAndNotAttach() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertEquals(false, d.kafka());
    assertEquals(0, d.brokerKills());
    ChaosOptions k = ChaosOptions.parse(new String[] {"--kafka"});
    assertEquals(true, k.kafka());
    assertEquals(1, k.brokerKills());
    assertEquals(
        3, ChaosOptions.parse(new String[] {"--kafka", "--broker-kills", "3"}).brokerKills());
    assertThrows(
        UsageException.class, () -> ChaosOptions.parse(new String[] {"--broker-kills", "1"}));
    assertThrows(
        UsageException.class,
        () ->
            ChaosOptions.parse(
                new String[] {"--kafka", "--attach", "--jdbc-url", "jdbc:postgresql://db/shop"}));
  }
}
