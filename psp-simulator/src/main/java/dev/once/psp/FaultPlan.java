package dev.once.psp;

import java.util.Random;

/**
 * The seeded draws that pick a fault per request: one draw per request that gets past validation
 * and the idempotency check, so the same seed and the same sequence of such requests give the same
 * faults.
 */
final class FaultPlan {

  enum Fault {
    NONE,
    ERROR,
    TIMEOUT,
    LOST_ANSWER
  }

  private final Random random;

  FaultPlan(long seed) {
    this.random = new Random(seed);
  }

  /**
   * Draws u in [0, 1): below errorRate is an error, the next timeoutRate a timeout, the next
   * lostAnswerRate a lost answer, the rest no fault. A rate of 1 therefore always hits, 0 never.
   */
  synchronized Fault draw(Faults faults) {
    double u = random.nextDouble();
    if (u < faults.errorRate()) {
      return Fault.ERROR;
    }
    u -= faults.errorRate();
    if (u < faults.timeoutRate()) {
      return Fault.TIMEOUT;
    }
    u -= faults.timeoutRate();
    if (u < faults.lostAnswerRate()) {
      return Fault.LOST_ANSWER;
    }
    return Fault.NONE;
  }
}
