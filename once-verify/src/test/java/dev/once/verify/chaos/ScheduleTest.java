package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
  @Test
  void theSameSeedGivesTheSameKillTimes() {
    assertEquals(
        Schedule.killTimes(42, 5, Duration.ofMinutes(2)),
        Schedule.killTimes(42, 5, Duration.ofMinutes(2)));
    assertNotEquals(
        Schedule.killTimes(42, 5, Duration.ofMinutes(2)),
        Schedule.killTimes(43, 5, Duration.ofMinutes(2)));
  }

  @Test
  void killsAreSpreadOverTheDurationOnePerSlotInOrder() {
    Duration d = Duration.ofSeconds(100);
    List<Duration> times = Schedule.killTimes(7, 4, d);
    assertEquals(4, times.size());
    for (int i = 0; i < times.size(); i++) {
      long ms = times.get(i).toMillis();
      assertTrue(
          ms >= i * 25_000L + 2_500 && ms <= (i + 1) * 25_000L - 2_500, "kill " + i + " at " + ms);
    }
    assertEquals(List.of(), Schedule.killTimes(7, 0, d));
  }

  @Test
  void theSameSeedGivesTheSameStepsPerClient() {
    assertEquals(steps(42, 3), steps(42, 3));
    assertNotEquals(steps(42, 3), steps(43, 3));
    assertNotEquals(steps(42, 3), steps(42, 4), "clients differ");
  }

  @Test
  void stepsUseEveryActionAndStayWithinTheAccounts() {
    List<Schedule.Step> steps = steps(1, 0);
    for (Schedule.Action a : Schedule.Action.values()) {
      assertTrue(steps.stream().anyMatch(s -> s.action() == a), a.toString());
    }
    assertTrue(steps.stream().allMatch(s -> s.account() >= 0 && s.account() < 3));
    assertTrue(steps.stream().anyMatch(Schedule.Step::duplicate));
    assertTrue(steps.stream().anyMatch(Schedule.Step::reuse));
    assertTrue(steps.stream().anyMatch(s -> s.replays() > 0));
  }

  @Test
  void ordersHoldALimitedProductAndRestocksAddOneToThreeUnits() {
    List<Schedule.Step> steps = steps(5, 2);
    for (Schedule.Step s : steps) {
      if (s.action() == Schedule.Action.ORDER) {
        assertTrue(s.first() >= 0 && s.first() <= 3 && s.second() >= 0 && s.second() <= 3);
        assertTrue(s.first() + s.second() > 0, s.toString());
      } else if (s.action() == Schedule.Action.RESTOCK) {
        assertTrue(s.first() >= 1 && s.first() <= 3 && s.second() == 0, s.toString());
      }
    }
    assertTrue(steps.stream().anyMatch(s -> s.action() == Schedule.Action.ORDER && s.decline()));
  }

  @Test
  void theMixIsAQuarterDepositsAFifthPaymentsAndAFifthOrders() {
    assertEquals(Schedule.Action.DEPOSIT, Schedule.ClientPlan.action(0.0));
    assertEquals(Schedule.Action.PAYMENT, Schedule.ClientPlan.action(0.25));
    assertEquals(Schedule.Action.REFUND, Schedule.ClientPlan.action(0.45));
    assertEquals(Schedule.Action.ORDER, Schedule.ClientPlan.action(0.55));
    assertEquals(Schedule.Action.PAY, Schedule.ClientPlan.action(0.75));
    assertEquals(Schedule.Action.CANCEL, Schedule.ClientPlan.action(0.9));
    assertEquals(Schedule.Action.RESTOCK, Schedule.ClientPlan.action(0.96));
    assertEquals(Schedule.Action.RESTOCK, Schedule.ClientPlan.action(0.999));
  }

  private static List<Schedule.Step> steps(long seed, int client) {
    Schedule.ClientPlan plan = new Schedule.ClientPlan(seed, client, 3);
    List<Schedule.Step> steps = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      steps.add(plan.next());
    }
    return steps;
  }
}
