package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.psp.FaultPlan.Fault;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

  private static List<Fault> draws(long seed, Faults faults, int count) {
    FaultPlan plan = new FaultPlan(seed);
    List<Fault> draws = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      draws.add(plan.draw(faults));
    }
    return draws;
  }

  @Test
  void theSameSeedDrawsTheSameSequenceAndAnotherSeedAnother() {
    Faults mixed = new Faults(0, 0.25, 0.25, 0.25, 1);

    List<Fault> first = draws(42, mixed, 200);

    assertThat(draws(42, mixed, 200)).isEqualTo(first);
    assertThat(draws(43, mixed, 200)).isNotEqualTo(first);
    assertThat(first).contains(Fault.NONE, Fault.ERROR, Fault.TIMEOUT, Fault.LOST_ANSWER);
  }

  @Test
  void aRateOfOneAlwaysHitsAndZeroNever() {
    assertThat(draws(1, Faults.NONE.withErrorRate(1), 100)).containsOnly(Fault.ERROR);
    assertThat(draws(1, Faults.NONE.withTimeoutRate(1), 100)).containsOnly(Fault.TIMEOUT);
    assertThat(draws(1, Faults.NONE.withLostAnswerRate(1), 100)).containsOnly(Fault.LOST_ANSWER);
    assertThat(draws(1, Faults.NONE, 100)).containsOnly(Fault.NONE);
  }
}
