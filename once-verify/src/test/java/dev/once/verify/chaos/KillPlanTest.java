package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KillPlanTest {
  @Test
  void sameSeedSamePlanInTimeOrderWithinTheWorkload() {
    Duration d = Duration.ofMinutes(10);
    List<KillPlan.Kill> a = KillPlan.of(42, 2, 20, 3, d);
    assertThat(KillPlan.of(42, 2, 20, 3, d)).isEqualTo(a);
    assertThat(KillPlan.of(43, 2, 20, 3, d)).isNotEqualTo(a);
    assertThat(a.size()).isEqualTo(23);
    assertThat(a.stream().filter(k -> k.target() == KillPlan.SIMULATOR).count()).isEqualTo(3);
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.get(i).at().compareTo(Duration.ZERO) > 0).isTrue();
      assertThat(a.get(i).at().compareTo(d) < 0).isTrue();
      if (i > 0) {
        assertThat(a.get(i - 1).at().compareTo(a.get(i).at()) <= 0).isTrue();
      }
    }
  }

  @Test
  void shopKillsHitEveryShopAndOnlyExistingOnes() {
    List<KillPlan.Kill> plan = KillPlan.of(7, 2, 20, 0, Duration.ofMinutes(10));
    Set<Integer> targets = plan.stream().map(KillPlan.Kill::target).collect(Collectors.toSet());
    assertThat(targets).isEqualTo(Set.of(0, 1));
    assertThat(
            KillPlan.of(7, 1, 5, 0, Duration.ofMinutes(1)).stream().allMatch(k -> k.target() == 0))
        .isTrue();
    assertThat(new KillPlan.Kill(Duration.ZERO, KillPlan.SIMULATOR).victim())
        .isEqualTo("psp-simulator");
    assertThat(new KillPlan.Kill(Duration.ZERO, 1).victim()).isEqualTo("shop 2");
  }

  @Test
  void withKafkaTheBrokerIsKilledAndAFurtherShopComesAndGoes() {
    Duration d = Duration.ofSeconds(90);
    List<KillPlan.Kill> plan = KillPlan.of(5, 1, 3, 0, 2, 0, true, d);
    assertThat(plan.size()).isEqualTo(7);
    assertThat(plan.stream().filter(k -> k.target() == KillPlan.BROKER).count()).isEqualTo(2);
    assertThat(first(plan, KillPlan.EXTRA_SHOP_START).at()).isEqualTo(Duration.ofSeconds(9));
    assertThat(first(plan, KillPlan.EXTRA_SHOP_KILL).at()).isEqualTo(Duration.ofSeconds(54));
    assertThat(new KillPlan.Kill(Duration.ZERO, KillPlan.BROKER).victim())
        .isEqualTo("the Kafka broker");
    // Without Kafka, the plan is the one it always was.
    assertThat(KillPlan.of(5, 1, 3, 0, 0, 0, false, d)).isEqualTo(KillPlan.of(5, 1, 3, 0, d));
  }

  @Test
  void failoversAreSpreadOverTheRunAmongTheOtherKills() {
    Duration d = Duration.ofSeconds(60);
    List<KillPlan.Kill> plan = KillPlan.of(5, 2, 3, 1, 0, 2, false, d);
    List<KillPlan.Kill> failovers =
        plan.stream().filter(k -> k.target() == KillPlan.FAILOVER).toList();
    assertThat(failovers).hasSize(2);
    assertThat(failovers.get(0).at()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(27));
    assertThat(failovers.get(1).at()).isBetween(Duration.ofSeconds(33), Duration.ofSeconds(57));
    assertThat(failovers.get(0).victim()).isEqualTo("the database primary");
    assertThat(plan)
        .hasSize(6)
        .isSortedAccordingTo(java.util.Comparator.comparing(KillPlan.Kill::at));
    // The other kills are where they were without failovers.
    assertThat(plan.stream().filter(k -> k.target() != KillPlan.FAILOVER).toList())
        .isEqualTo(KillPlan.of(5, 2, 3, 1, d));
  }

  private static KillPlan.Kill first(List<KillPlan.Kill> plan, int target) {
    return plan.stream().filter(k -> k.target() == target).findFirst().orElseThrow();
  }
}
