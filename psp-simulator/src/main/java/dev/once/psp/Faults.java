package dev.once.psp;

/**
 * The faults the simulator injects into charge and refund requests, drawn once per request that
 * would otherwise be executed.
 *
 * @param latencyMs added before every answer to a POST, 0..600000
 * @param errorRate the share of requests answered 503 {@code provider-unavailable} with nothing
 *     applied, 0..1
 * @param timeoutRate the share of requests held {@code timeoutMs} and then answered 504 {@code
 *     provider-timeout} with nothing applied, 0..1
 * @param lostAnswerRate the share of requests whose effect is applied and whose answer is stored
 *     but never sent: the connection is closed without a response, 0..1
 * @param timeoutMs how long a timed-out request is held, 0..600000
 * @throws InvalidFieldException if a value is out of range or the three rates add up to more than 1
 */
public record Faults(
    long latencyMs, double errorRate, double timeoutRate, double lostAnswerRate, long timeoutMs) {

  /** The largest latency or timeout: ten minutes. */
  public static final long MAX_MILLIS = 600_000;

  /** No latency, no faults; timeouts (if switched on later) hold a request for 30 s. */
  public static final Faults NONE = new Faults(0, 0, 0, 0, 30_000);

  // Three rates that are each written with a few decimals (0.1 + 0.2 + 0.7) may add up to a hair
  // more than 1 in binary floating point; that is still a sum of 1.
  private static final double SUM_TOLERANCE = 1e-9;

  public Faults {
    millis("latencyMs", latencyMs);
    rate("errorRate", errorRate);
    rate("timeoutRate", timeoutRate);
    rate("lostAnswerRate", lostAnswerRate);
    millis("timeoutMs", timeoutMs);
    if (errorRate + timeoutRate + lostAnswerRate > 1 + SUM_TOLERANCE) {
      throw new InvalidFieldException(
          "lostAnswerRate",
          "errorRate + timeoutRate + lostAnswerRate must not exceed 1, was "
              + (errorRate + timeoutRate + lostAnswerRate));
    }
  }

  public Faults withLatencyMs(long latencyMs) {
    return new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
  }

  public Faults withErrorRate(double errorRate) {
    return new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
  }

  public Faults withTimeoutRate(double timeoutRate) {
    return new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
  }

  public Faults withLostAnswerRate(double lostAnswerRate) {
    return new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
  }

  public Faults withTimeoutMs(long timeoutMs) {
    return new Faults(latencyMs, errorRate, timeoutRate, lostAnswerRate, timeoutMs);
  }

  private static void millis(String field, long value) {
    if (value < 0 || value > MAX_MILLIS) {
      throw new InvalidFieldException(
          field, field + " must be between 0 and " + MAX_MILLIS + " ms, was " + value);
    }
  }

  private static void rate(String field, double value) {
    // Written so that NaN fails too.
    if (!(value >= 0 && value <= 1)) {
      throw new InvalidFieldException(field, field + " must be between 0 and 1, was " + value);
    }
  }
}
