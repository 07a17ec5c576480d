package dev.once.verify.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When each SIGKILL of a run falls and whom it hits: {@code shopKills} of the shops (each a seeded
 * choice among them) and {@code simulatorKills} of psp-simulator, spread over the workload by
 * {@link Schedule#killTimes}, in time order. The same seed gives the same plan.
 */
final class KillPlan {
  /** The victim of a kill that is not a shop. */
  static final int SIMULATOR = -1;

  /**
   * One kill.
   *
   * @param at time since the workload started
   * @param target the shop's index, or {@link #SIMULATOR}
   */
  record Kill(Duration at, int target) {
    String victim() {
      return target == SIMULATOR ? "psp-simulator" : "shop " + (target + 1);
    }
  }

  private KillPlan() {}

  static List<Kill> of(long seed, int shops, int shopKills, int simulatorKills, Duration duration) {
    SplittableRandom pick = new SplittableRandom(seed ^ 0x73686f70L);
    List<Kill> kills = new ArrayList<>();
    for (Duration at : Schedule.killTimes(seed, shopKills, duration)) {
      kills.add(new Kill(at, shops == 1 ? 0 : pick.nextInt(shops)));
    }
    for (Duration at : Schedule.killTimes(seed ^ 0x707370L, simulatorKills, duration)) {
      kills.add(new Kill(at, SIMULATOR));
    }
    kills.sort(Comparator.comparing(Kill::at));
    return List.copyOf(kills);
  }
}
