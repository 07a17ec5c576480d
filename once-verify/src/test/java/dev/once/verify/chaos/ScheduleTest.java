package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
  @Test
  void theSameSeedGivesTheSameKillTimes() {
    assertThat(Schedule.killTimes(42, 5, Duration.ofMinutes(2)))
        .isEqualTo(Schedule.killTimes(42, 5, Duration.ofMinutes(2)));
    assertThat(Schedule.killTimes(43, 5, Duration.ofMinutes(2)))
        .isNotEqualTo(Schedule.killTimes(42, 5, Duration.ofMinutes(2)));
  }

  @Test
  void killsAreSpreadOverTheDurationOnePerSlotInOrder() {
    Duration d = Duration.ofSeconds(100);
    List<Duration> times = Schedule.killTimes(7, 4, d);
    assertThat(times.size()).isEqualTo(4);
    for (int i = 0; i < times.size(); i++) {
      long ms = times.get(i).toMillis();
      assertThat(ms >= i * 25_000L + 2_500 && ms <= (i + 1) * 25_000L - 2_500)
          .as("kill " + i + " at " + ms)
          .isTrue();
    }
    assertThat(Schedule.killTimes(7, 0, d)).isEqualTo(List.of());
  }

  @Test
  void theSameSeedGivesTheSameStepsPerClient() {
    assertThat(steps(42, 3)).isEqualTo(steps(42, 3));
    assertThat(steps(43, 3)).isNotEqualTo(steps(42, 3));
    assertThat(steps(42, 4)).as("clients differ").isNotEqualTo(steps(42, 3));
  }

  @Test
  void stepsUseEveryActionAndStayWithinTheAccounts() {
    List<Schedule.Step> steps = steps(1, 0);
    for (Schedule.Action a : Schedule.Action.values()) {
      assertThat(steps.stream().anyMatch(s -> s.action() == a)).as(a.toString()).isTrue();
    }
    assertThat(steps.stream().allMatch(s -> s.account() >= 0 && s.account() < 3)).isTrue();
    assertThat(steps.stream().anyMatch(Schedule.Step::duplicate)).isTrue();
    assertThat(steps.stream().anyMatch(Schedule.Step::reuse)).isTrue();
    assertThat(steps.stream().anyMatch(s -> s.replays() > 0)).isTrue();
  }

  @Test
  void ordersHoldALimitedProductAndRestocksAddOneToThreeUnits() {
    List<Schedule.Step> steps = steps(5, 2);
    for (Schedule.Step s : steps) {
      if (s.action() == Schedule.Action.ORDER) {
        assertThat(s.first() >= 0 && s.first() <= 3 && s.second() >= 0 && s.second() <= 3).isTrue();
        assertThat(s.first() + s.second() > 0).as(s.toString()).isTrue();
      } else if (s.action() == Schedule.Action.RESTOCK) {
        assertThat(s.first() >= 1 && s.first() <= 3 && s.second() == 0).as(s.toString()).isTrue();
      }
    }
    assertThat(steps.stream().anyMatch(s -> s.action() == Schedule.Action.ORDER && s.decline()))
        .isTrue();
  }

  @Test
  void theMixIsAQuarterDepositsAFifthPaymentsAndAFifthOrders() {
    assertThat(Schedule.ClientPlan.action(0.0)).isEqualTo(Schedule.Action.DEPOSIT);
    assertThat(Schedule.ClientPlan.action(0.25)).isEqualTo(Schedule.Action.PAYMENT);
    assertThat(Schedule.ClientPlan.action(0.45)).isEqualTo(Schedule.Action.REFUND);
    assertThat(Schedule.ClientPlan.action(0.55)).isEqualTo(Schedule.Action.ORDER);
    assertThat(Schedule.ClientPlan.action(0.75)).isEqualTo(Schedule.Action.PAY);
    assertThat(Schedule.ClientPlan.action(0.9)).isEqualTo(Schedule.Action.CANCEL);
    assertThat(Schedule.ClientPlan.action(0.96)).isEqualTo(Schedule.Action.RESTOCK);
    assertThat(Schedule.ClientPlan.action(0.999)).isEqualTo(Schedule.Action.RESTOCK);
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
