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

  /** The victim of a kill of the Kafka broker ({@code chaos --kafka}). */
  static final int BROKER = -2;

  /**
   * Not a kill: a further shop instance starts on the same database and joins the consumer groups,
   * so that every group rebalances ({@code chaos --kafka}).
   */
  static final int EXTRA_SHOP_START = -3;

  /** The SIGKILL of that further shop instance: the groups rebalance again. */
  static final int EXTRA_SHOP_KILL = -4;

  /** The SIGKILL of the database primary, and its standby promoted ({@code chaos --failover}). */
  static final int FAILOVER = -5;

  /**
   * One kill.
   *
   * @param at time since the workload started
   * @param target the shop's index, or {@link #SIMULATOR}
   */
  record Kill(Duration at, int target) {
    String victim() {
      return switch (target) {
        case SIMULATOR -> "psp-simulator";
        case BROKER -> "the Kafka broker";
        case EXTRA_SHOP_START, EXTRA_SHOP_KILL -> "the extra shop";
        case FAILOVER -> "the database primary";
        default -> "shop " + (target + 1);
      };
    }
  }

  private KillPlan() {}

  static List<Kill> of(long seed, int shops, int shopKills, int simulatorKills, Duration duration) {
    return of(seed, shops, shopKills, simulatorKills, 0, 0, false, duration);
  }

  /**
   * As above, and with Kafka: {@code brokerKills} SIGKILLs of the broker, and if {@code rebalance}
   * a further shop instance that joins the consumer groups at a tenth of the run and is killed at
   * three fifths of it (each a rebalance of every group); with a standby, {@code failovers}
   * SIGKILLs of the database primary.
   */
  static List<Kill> of(
      long seed,
      int shops,
      int shopKills,
      int simulatorKills,
      int brokerKills,
      int failovers,
      boolean rebalance,
      Duration duration) {
    SplittableRandom pick = new SplittableRandom(seed ^ 0x73686f70L);
    List<Kill> kills = new ArrayList<>();
    for (Duration at : Schedule.killTimes(seed, shopKills, duration)) {
      kills.add(new Kill(at, shops == 1 ? 0 : pick.nextInt(shops)));
    }
    for (Duration at : Schedule.killTimes(seed ^ 0x707370L, simulatorKills, duration)) {
      kills.add(new Kill(at, SIMULATOR));
    }
    for (Duration at : Schedule.killTimes(seed ^ 0x6b61666b61L, brokerKills, duration)) {
      kills.add(new Kill(at, BROKER));
    }
    for (Duration at : Schedule.killTimes(seed ^ 0x7072696dL, failovers, duration)) {
      kills.add(new Kill(at, FAILOVER));
    }
    if (rebalance) {
      kills.add(new Kill(duration.dividedBy(10), EXTRA_SHOP_START));
      kills.add(new Kill(duration.multipliedBy(3).dividedBy(5), EXTRA_SHOP_KILL));
    }
    kills.sort(Comparator.comparing(Kill::at));
    return List.copyOf(kills);
  }
}
