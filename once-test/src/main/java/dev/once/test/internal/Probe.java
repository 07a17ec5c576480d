package dev.once.test.internal;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * Reads the user's effect probe as a {@link BigDecimal}, so probes of any {@link Number} type
 * compare exactly. A probe that fails or returns {@code null} fails the test at once: without it
 * nothing can be judged.
 */
public final class Probe {
  private final Callable<? extends Number> read;

  /** A probe that reads with {@code read} (the user's effect's read method). */
  public Probe(Callable<? extends Number> read) {
    this.read = Objects.requireNonNull(read, "effect");
  }

  /** The effect's value now. */
  public BigDecimal read() {
    Number value;
    try {
      value = read.call();
    } catch (Exception e) {
      throw new AssertionError("the effect probe failed: " + e, e);
    }
    if (value == null) {
      throw new AssertionError("the effect probe returned null");
    }
    return new BigDecimal(value.toString());
  }

  /** How far the effect moved while {@code action} ran. */
  public BigDecimal delta(Action action) throws Exception {
    BigDecimal before = read();
    action.run();
    return read().subtract(before);
  }

  /** {@code value} in words: its plain digits, without trailing zeros. */
  public static String words(BigDecimal value) {
    return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
  }

  /** Something the probe measures. */
  @FunctionalInterface
  public interface Action {
    void run() throws Exception;
  }
}
