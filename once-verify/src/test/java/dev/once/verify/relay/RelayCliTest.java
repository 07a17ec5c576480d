package dev.once.verify.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RelayCliTest {

  private static RelayOptions parse(String... args) throws UsageException {
    return Cli.parse(new RelayCli(), args).options();
  }

  @Test
  void defaults() throws UsageException {
    RelayOptions o = parse("--shop-jar", "shop.jar");
    assertThat(o.shopJar()).isEqualTo(Path.of("shop.jar"));
    assertThat(o.phases())
        .containsExactly("http", "relay", "archive", "hot", "orders", "horizon", "kill", "purge");
    assertThat(o.rows()).isEqualTo(50_000);
    assertThat(o.seconds()).isEqualTo(15);
    assertThat(o.warmup()).isEqualTo(8);
    assertThat(o.connections()).isEqualTo(16);
    assertThat(o.rounds()).isEqualTo(1);
    assertThat(o.orderConnections()).isEqualTo(50);
    assertThat(o.orderProducts()).isEqualTo(10);
    assertThat(o.orderTransports()).containsExactly(Transport.IN_PROCESS);
    assertThat(o.orders()).isEqualTo(3_000);
    assertThat(o.products()).isEqualTo(24);
    assertThat(o.paced()).isEqualTo(20);
    assertThat(o.pacedSeconds()).isEqualTo(15);
    // A default run has no drain and no paced phase: only the orders phase's products are made.
    assertThat(o.productsNeeded()).isEqualTo(10);
    assertThat(parse("--shop-jar", "s.jar", "--phases", "orders,drain").productsNeeded())
        .isEqualTo(24);
    assertThat(o.hotRows()).isEqualTo(500);
    assertThat(o.hold()).isEqualTo(60);
    assertThat(o.horizonWindow()).isEqualTo(10);
    assertThat(o.killRows()).isEqualTo(2_000);
    assertThat(o.killAfter()).isEqualTo(3);
    assertThat(o.purgeRows()).isEqualTo(200_000);
    assertThat(o.purgeSeconds()).isEqualTo(60);
    assertThat(o.purgeBatchSize()).isZero();
    assertThat(o.retention()).isEqualTo("default");
    assertThat(o.shopArgs()).isEmpty();
    assertThat(o.commonShopArgs()).isEmpty();
    assertThat(o.shopJvmOptions()).isEmpty();
    assertThat(o.out()).isEqualTo(Path.of("target/bench"));
  }

  @Test
  void flags() throws UsageException {
    RelayOptions o =
        parse(
            "--shop-jar=s.jar",
            "--phases",
            "purge, KILL,relay",
            "--rows=300",
            "--kill-after",
            "0",
            "--warmup",
            "0",
            "--retention",
            "30s",
            "--shop-arg",
            "--once.outbox.relay.workers=4",
            "--shop-arg=--a.b=c",
            "--shop-jvm",
            " -XX:TieredStopAtLevel=1  -Xlog:gc ",
            "--out",
            "x");
    // Always in the documented order, whatever the order asked.
    assertThat(o.phases()).containsExactly("relay", "kill", "purge");
    assertThat(o.runs("http")).isFalse();
    assertThat(o.rows()).isEqualTo(300);
    assertThat(o.killAfter()).isZero();
    assertThat(o.commonShopArgs())
        .isEqualTo(
            List.of(
                "--once.outbox.relay.delivered-retention=30s",
                "--once.outbox.relay.workers=4",
                "--a.b=c"));
    assertThat(o.shopJvmOptions()).containsExactly("-XX:TieredStopAtLevel=1", "-Xlog:gc");
    assertThat(o.out()).isEqualTo(Path.of("x"));
    assertThat(o.describe())
        .contains("phases relay,kill,purge")
        .contains("rows 300")
        .contains("shop JVM options [-XX:TieredStopAtLevel=1, -Xlog:gc]");
  }

  @Test
  void aBadValueIsAUsageErrorThatNamesTheFlag() {
    String[][] cases = {
      {"--rows", "0"},
      {"--rows", "many"},
      {"--seconds", "0"},
      {"--warmup", "-1"},
      {"--connections", "0"},
      {"--rounds", "0"},
      {"--order-connections", "x"},
      {"--order-products", "2"},
      {"--orders", "0"},
      {"--products", "2"},
      {"--products", "some"},
      {"--paced", "0"},
      {"--paced", "1.5"},
      {"--paced-seconds", "0"},
      {"--kafka", "sometimes"},
      {"--hot-rows", "0"},
      {"--hold", "0"},
      {"--horizon-window", "0"},
      {"--kill-rows", "0"},
      {"--kill-after", "-1"},
      {"--purge-rows", "0"},
      {"--purge-seconds", "4"},
      {"--purge-batch-size", "-1"},
      {"--retention", "soon"},
      {"--shop-arg", "no-dashes"},
      {"--shop-jvm", "Xmx1g"},
    };
    for (String[] c : cases) {
      assertThatExceptionOfType(UsageException.class)
          .as("%s %s", c[0], c[1])
          .isThrownBy(() -> parse("--shop-jar", "s.jar", c[0], c[1]))
          .withMessageContaining(c[0])
          .withMessageContaining(c[1]);
    }
  }

  @Test
  void kafkaSaysWhichTransportsTheOrdersPhaseRuns() throws UsageException {
    assertThat(parse("--shop-jar", "s.jar", "--kafka").orderTransports())
        .containsExactly(Transport.KAFKA);
    assertThat(parse("--shop-jar", "s.jar", "--kafka=only").orderTransports())
        .containsExactly(Transport.KAFKA);
    assertThat(parse("--shop-jar", "s.jar", "--kafka", "both", "--rows", "5").orderTransports())
        .containsExactly(Transport.IN_PROCESS, Transport.KAFKA);
    // A flag right after --kafka is a flag, not its value.
    RelayOptions o = parse("--shop-jar", "s.jar", "--kafka", "--phases", "orders");
    assertThat(o.orderTransports()).containsExactly(Transport.KAFKA);
    assertThat(o.describe()).contains("orders: 50 connections, 10 products, Kafka;");
  }

  @Test
  void theSetUpMakesTheProductsOfThePhasesAskedFor() throws UsageException {
    assertThat(parse("--shop-jar", "s.jar", "--phases", "orders").productsNeeded()).isEqualTo(10);
    assertThat(
            parse("--shop-jar", "s.jar", "--phases", "orders,paced", "--products", "6")
                .productsNeeded())
        .isEqualTo(10);
    assertThat(
            parse("--shop-jar", "s.jar", "--phases", "drain", "--order-products", "30")
                .productsNeeded())
        .isEqualTo(24);
    assertThat(parse("--shop-jar", "s.jar", "--phases", "http,relay").productsNeeded()).isZero();
  }

  @Test
  void anUnknownPhaseIsRefused() {
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> parse("--shop-jar", "s.jar", "--phases", "relay,warp"))
        .withMessageContaining("--phases")
        .withMessageContaining("warp");
  }

  @Test
  void theShopJarIsRequiredAndAnUnknownFlagRefused() {
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> parse("--rows", "5"))
        .withMessageContaining("--shop-jar");
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> parse("--shop-jar", "s.jar", "--bogus", "1"))
        .withMessageContaining("--bogus");
  }

  @Test
  void theIssue6PositionalFormIsGone() {
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> parse("--shop-jar", "s.jar", "300", "5", "4"));
  }

  @Test
  void retentionDefaultPassesNothing() throws UsageException {
    assertThat(parse("--shop-jar", "s.jar", "--retention", "default").commonShopArgs()).isEmpty();
    assertThat(Set.copyOf(RelayOptions.PHASES)).hasSize(RelayOptions.PHASES.size());
  }
}
