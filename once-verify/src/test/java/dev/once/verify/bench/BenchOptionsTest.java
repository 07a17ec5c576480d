package dev.once.verify.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  @Test
  void defaults() throws UsageException {
    BenchOptions o = BenchOptions.parse(new String[] {"--shop-jar", "shop.jar"});
    assertEquals(Path.of("shop.jar"), o.shopJar());
    assertEquals(Duration.ofSeconds(20), o.duration());
    assertEquals(Duration.ofSeconds(15), o.warmup());
    assertEquals(16, o.connections());
    assertEquals(16, o.threads());
    assertEquals(List.of(50, 8), o.orderConnections());
    assertEquals(64, o.accounts());
    assertEquals(Set.of(Scenario.values()), o.scenarios());
    assertEquals(List.of(), o.shopJvmOptions());
    assertEquals(1, o.rounds());
    assertTrue(o.out().startsWith("bench-results"));
  }

  @Test
  void flags() throws UsageException {
    BenchOptions o =
        BenchOptions.parse(
            new String[] {
              "--shop-jar=s.jar",
              "--duration",
              "500ms",
              "--warmup",
              "2m",
              "--connections",
              "8",
              "--shop-jvm",
              " -XX:+UseSerialGC  -Xss512k ",
              "--rounds",
              "3",
              "--scenarios",
              "get,replay",
              "--out",
              "x"
            });
    assertEquals(Duration.ofMillis(500), o.duration());
    assertEquals(Duration.ofMinutes(2), o.warmup());
    assertEquals(8, o.threads());
    assertEquals(Set.of(Scenario.GET, Scenario.REPLAY), o.scenarios());
    assertEquals(List.of("-XX:+UseSerialGC", "-Xss512k"), o.shopJvmOptions());
    assertEquals(3, o.rounds());
    assertFalse(o.runs(Scenario.HTTP_ONCE));
    assertFalse(o.runs(Scenario.ORDERS));
  }

  @Test
  void ordersAloneWithTheirOwnConnections() throws UsageException {
    BenchOptions o =
        BenchOptions.parse(
            new String[] {"--shop-jar", "s.jar", "--scenarios", "orders", "--order-connections=7"});
    assertEquals(Set.of(Scenario.ORDERS), o.scenarios());
    assertEquals(List.of(7), o.orderConnections());
    assertEquals(16, o.connections());
    assertTrue(BenchOptions.usage().contains("--order-connections"));
    assertTrue(BenchOptions.usage().contains("orders "));
  }

  @Test
  void refusesWhatItDoesNotKnow() {
    assertThrows(UsageException.class, () -> BenchOptions.parse(new String[] {}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--bogus", "1"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--duration", "soon"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--scenarios", "nope"}));
    assertThrows(
        UsageException.class, () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--out"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--shop-jvm", "Xmx1g"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--rounds", "0"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "0"}));
    assertThrows(
        UsageException.class,
        () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "50,"}));
  }

  @Test
  void theOrdersScenarioRunsOncePerConnectionCount() throws Exception {
    assertEquals(
        List.of(50, 8, 2),
        BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "50, 8,2"})
            .orderConnections());
  }
}
