package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    assertEquals(a, KillPlan.of(42, 2, 20, 3, d));
    assertNotEquals(a, KillPlan.of(43, 2, 20, 3, d));
    assertEquals(23, a.size());
    assertEquals(3, a.stream().filter(k -> k.target() == KillPlan.SIMULATOR).count());
    for (int i = 0; i < a.size(); i++) {
      assertTrue(a.get(i).at().compareTo(Duration.ZERO) > 0);
      assertTrue(a.get(i).at().compareTo(d) < 0);
      if (i > 0) {
        assertTrue(a.get(i - 1).at().compareTo(a.get(i).at()) <= 0);
      }
    }
  }

  @Test
  void shopKillsHitEveryShopAndOnlyExistingOnes() {
    List<KillPlan.Kill> plan = KillPlan.of(7, 2, 20, 0, Duration.ofMinutes(10));
    Set<Integer> targets = plan.stream().map(KillPlan.Kill::target).collect(Collectors.toSet());
    assertEquals(Set.of(0, 1), targets);
    assertTrue(
        KillPlan.of(7, 1, 5, 0, Duration.ofMinutes(1)).stream().allMatch(k -> k.target() == 0));
    assertEquals("psp-simulator", new KillPlan.Kill(Duration.ZERO, KillPlan.SIMULATOR).victim());
    assertEquals("shop 2", new KillPlan.Kill(Duration.ZERO, 1).victim());
  }

  @Test
  void withKafkaTheBrokerIsKilledAndAFurtherShopComesAndGoes() {
    Duration d = Duration.ofSeconds(90);
    List<KillPlan.Kill> plan = KillPlan.of(5, 1, 3, 0, 2, true, d);
    assertEquals(7, plan.size());
    assertEquals(2, plan.stream().filter(k -> k.target() == KillPlan.BROKER).count());
    assertEquals(Duration.ofSeconds(9), first(plan, KillPlan.EXTRA_SHOP_START).at());
    assertEquals(Duration.ofSeconds(54), first(plan, KillPlan.EXTRA_SHOP_KILL).at());
    assertEquals("the Kafka broker", new KillPlan.Kill(Duration.ZERO, KillPlan.BROKER).victim());
    // Without Kafka, the plan is the one it always was.
    assertEquals(KillPlan.of(5, 1, 3, 0, d), KillPlan.of(5, 1, 3, 0, 0, false, d));
  }

  private static KillPlan.Kill first(List<KillPlan.Kill> plan, int target) {
    return plan.stream().filter(k -> k.target() == target).findFirst().orElseThrow();
  }
}
