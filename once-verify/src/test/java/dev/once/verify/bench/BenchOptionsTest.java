package dev.once.verify.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  @Test
  void defaults() throws UsageException {
    BenchOptions o = BenchOptions.parse(new String[] {"--shop-jar", "shop.jar"});
    assertThat(o.shopJar()).isEqualTo(Path.of("shop.jar"));
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(15));
    assertThat(o.connections()).isEqualTo(16);
    assertThat(o.threads()).isEqualTo(16);
    assertThat(o.orderConnections()).isEqualTo(List.of(50, 8));
    assertThat(o.accounts()).isEqualTo(64);
    // Every scenario but the tracing pair, which runs only when --scenarios names it.
    assertThat(o.scenarios())
        .containsExactly(
            Scenario.SQL_ONCE,
            Scenario.SQL_PLAIN,
            Scenario.HTTP_ONCE,
            Scenario.REPLAY,
            Scenario.GET,
            Scenario.HTTP_OFF,
            Scenario.ORDERS);
    assertThat(o.shopJvmOptions()).isEqualTo(List.of());
    assertThat(o.rounds()).isEqualTo(1);
    assertThat(o.floodConnections()).isEqualTo(64);
    assertThat(o.neighbourConnections()).isEqualTo(4);
    assertThat(o.out()).startsWithRaw(Path.of("bench-results"));
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
    assertThat(o.duration()).isEqualTo(Duration.ofMillis(500));
    assertThat(o.warmup()).isEqualTo(Duration.ofMinutes(2));
    assertThat(o.threads()).isEqualTo(8);
    assertThat(o.scenarios()).isEqualTo(Set.of(Scenario.GET, Scenario.REPLAY));
    assertThat(o.shopJvmOptions()).isEqualTo(List.of("-XX:+UseSerialGC", "-Xss512k"));
    assertThat(o.rounds()).isEqualTo(3);
    assertThat(o.runs(Scenario.HTTP_ONCE)).isFalse();
    assertThat(o.runs(Scenario.ORDERS)).isFalse();
  }

  @Test
  void theTracingPairRunsWhenNamed() throws UsageException {
    BenchOptions o =
        BenchOptions.parse(
            new String[] {"--shop-jar", "s.jar", "--scenarios", "http-untraced,http-traced"});
    assertThat(o.scenarios()).containsExactly(Scenario.UNTRACED, Scenario.TRACED);
    assertThat(o.runs(Scenario.HTTP_ONCE)).isFalse();
  }

  @Test
  void fairnessRunsWhenNamedWithItsOwnConnections() throws UsageException {
    BenchOptions o =
        BenchOptions.parse(
            new String[] {
              "--shop-jar",
              "s.jar",
              "--scenarios",
              "fairness",
              "--flood-connections",
              "32",
              "--neighbour-connections=2"
            });
    assertThat(o.scenarios()).containsExactly(Scenario.FAIRNESS);
    assertThat(o.floodConnections()).isEqualTo(32);
    assertThat(o.neighbourConnections()).isEqualTo(2);
    assertThat(o.runs(Scenario.HTTP_ONCE)).isFalse();
    assertThat(BenchOptions.usage()).contains("--flood-connections").contains("fairness ");
  }

  @Test
  void ordersAloneWithTheirOwnConnections() throws UsageException {
    BenchOptions o =
        BenchOptions.parse(
            new String[] {"--shop-jar", "s.jar", "--scenarios", "orders", "--order-connections=7"});
    assertThat(o.scenarios()).isEqualTo(Set.of(Scenario.ORDERS));
    assertThat(o.orderConnections()).isEqualTo(List.of(7));
    assertThat(o.connections()).isEqualTo(16);
    assertThat(BenchOptions.usage()).contains("--order-connections");
    assertThat(BenchOptions.usage()).contains("orders ");
  }

  @Test
  void aBadValueIsAUsageErrorThatNamesTheFlagAndTheValue() {
    String[][] cases = {
      {"--duration", "soon"},
      {"--duration", "0"},
      {"--warmup", "-1s"},
      {"--connections", "x"},
      {"--rounds", "0"},
      {"--order-connections", "50,"},
      {"--flood-connections", "0"},
      {"--neighbour-connections", "many"},
      {"--scenarios", "nope"},
      {"--bogus", "1"},
    };
    for (String[] flag : cases) {
      String[] args = {"--shop-jar", "s", flag[0], flag[1]};
      assertThatExceptionOfType(UsageException.class)
          .as(String.join(" ", args))
          .isThrownBy(() -> BenchOptions.parse(args))
          .withMessageContaining(flag[0].equals("--scenarios") ? "scenario" : flag[0])
          .withMessageContaining(flag[1]);
    }
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                BenchOptions.parse(new String[] {"--shop-jar", "s", "--rounds", "2", "--rounds=3"}))
        .withMessageContaining("--rounds");
  }

  @Test
  void refusesWhatItDoesNotKnow() {
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> BenchOptions.parse(new String[] {}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--bogus", "1"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--duration", "soon"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--scenarios", "nope"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--out"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--shop-jvm", "Xmx1g"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--rounds", "0"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "0"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () ->
                BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "50,"}));
  }

  @Test
  void theOrdersScenarioRunsOncePerConnectionCount() throws Exception {
    assertThat(
            BenchOptions.parse(new String[] {"--shop-jar", "s", "--order-connections", "50, 8,2"})
                .orderConnections())
        .isEqualTo(List.of(50, 8, 2));
  }
}
