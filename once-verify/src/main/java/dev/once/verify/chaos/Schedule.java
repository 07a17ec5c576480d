package dev.once.verify.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Everything a run decides by chance, drawn from its seed: the kill times and, per virtual client,
 * the sequence of steps. The same seed gives the same kill times and the same steps per client; the
 * interleaving of clients and what the shop answers still depend on timing.
 */
public final class Schedule {
  private Schedule() {}

  /**
   * {@code kills} moments in {@code (0, duration)}: the duration is cut into equal slots, one per
   * kill, and each kill falls at a random point of the middle 80% of its slot.
   */
  public static List<Duration> killTimes(long seed, int kills, Duration duration) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x6b696c6cL);
    List<Duration> times = new ArrayList<>();
    long slot = duration.toMillis() / Math.max(1, kills);
    for (int i = 0; i < kills; i++) {
      long at = i * slot + slot / 10 + (long) (random.nextDouble() * slot * 0.8);
      times.add(Duration.ofMillis(at));
    }
    return times;
  }

  /** Sleeps until {@link System#nanoTime()} reaches {@code nanos} (at once if it has). */
  static void sleepUntil(long nanos) throws InterruptedException {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  /** What a client does next. */
  public enum Action {
    DEPOSIT,
    PAYMENT,
    REFUND,
    /** Place an order on one of the client's accounts. */
    ORDER,
    /** Pay one of the client's orders, if it is reserved. */
    PAY,
    /** Cancel one of the client's orders, if it is placed, reserved or paid. */
    CANCEL,
    /** Add units to one of the client's limited products. */
    RESTOCK
  }

  /**
   * One step of a client.
   *
   * @param action what to send
   * @param account which of the client's accounts (index)
   * @param target for a refund, which of the account's succeeded payments; for a pay or a cancel,
   *     which of the client's orders; for a restock, which product (an index to take modulo)
   * @param duplicate send it from two threads at once
   * @param reuse afterwards, send its key with a different body (expect 422)
   * @param replays how many times to send it again after its first answer
   * @param pauseMillis pause before the step
   * @param first for an order, the units of the first limited product (0 to 3); for a restock, the
   *     units added (1 to 3)
   * @param second for an order, the units of the second limited product (0 to 3; never both 0)
   * @param decline for an order, make its total one the provider declines (see {@link Workload})
   */
  public record Step(
      Action action,
      int account,
      int target,
      boolean duplicate,
      boolean reuse,
      int replays,
      int pauseMillis,
      int first,
      int second,
      boolean decline) {}

  /** The steps of client {@code client}: an endless, seeded sequence. */
  public static final class ClientPlan {
    private final SplittableRandom random;
    private final int accounts;

    public ClientPlan(long seed, int client, int accounts) {
      this.random = new SplittableRandom(seed * 1_000_003L + client);
      this.accounts = accounts;
    }

    public Step next() {
      double u = random.nextDouble();
      Action action = action(u);
      int account = random.nextInt(accounts);
      int target = random.nextInt(1_000);
      boolean duplicate = random.nextDouble() < 0.1;
      boolean reuse = random.nextDouble() < 0.05;
      int replays = random.nextDouble() < 0.3 ? 1 + random.nextInt(2) : 0;
      int pause = random.nextInt(50);
      int first = random.nextInt(4);
      int second = first == 0 ? 1 + random.nextInt(3) : random.nextInt(4);
      boolean decline = random.nextDouble() < 0.2;
      if (action == Action.RESTOCK) {
        first = 1 + random.nextInt(3);
        second = 0;
      }
      return new Step(
          action, account, target, duplicate, reuse, replays, pause, first, second, decline);
    }

    /**
     * The mix: deposits 25%, payments 20%, refunds 10%, orders 20%, pays 15%, cancels 6%, restocks
     * 4%.
     */
    static Action action(double u) {
      if (u < 0.25) {
        return Action.DEPOSIT;
      } else if (u < 0.45) {
        return Action.PAYMENT;
      } else if (u < 0.55) {
        return Action.REFUND;
      } else if (u < 0.75) {
        return Action.ORDER;
      } else if (u < 0.9) {
        return Action.PAY;
      } else if (u < 0.96) {
        return Action.CANCEL;
      }
      return Action.RESTOCK;
    }
  }
}
