package dev.once.verify.chaos;

import java.math.BigDecimal;

/**
 * Makes every intent's effect countable: the n-th intent of one kind on one account gets an amount
 * that no other intent of that kind on that account has, so the account's journal shows each intent
 * at most once, found by its kind and amount. The intent number sits in the four fraction digits
 * and carries into the integer part: deposits are {@code 20 + n/10000}, payments {@code 1 +
 * n/10000}, refunds {@code n/10000} (below every payment while n < 10000). Numbers whose fraction
 * is exactly .51 or .52 are skipped: psp-simulator declines charges of .51 and refunds of .52, and
 * declines are not what this slice tests. Four fraction digits need a currency with four minor
 * units: the workload's accounts are in CLF ({@link Workload#CURRENCY}).
 */
public final class Amounts {
  private Amounts() {}

  /** What a journal row records for the intent; the journal's spelling of its kind. */
  public enum Kind {
    DEPOSIT("deposit", new BigDecimal("20")),
    PAYMENT("charge", BigDecimal.ONE),
    REFUND("refund", BigDecimal.ZERO);

    private final String journalKind;
    private final BigDecimal base;

    Kind(String journalKind, BigDecimal base) {
      this.journalKind = journalKind;
      this.base = base;
    }

    public String journalKind() {
      return journalKind;
    }

    /** The kind whose journal rows are spelt {@code kind}, or null (e.g. {@code reversal}). */
    public static Kind ofJournal(String kind) {
      for (Kind k : values()) {
        if (k.journalKind.equals(kind)) {
          return k;
        }
      }
      return null;
    }
  }

  /** Whether intent number {@code n} may be used (n >= 1, fraction not .51 nor .52). */
  public static boolean usable(long n) {
    long fraction = n % 10_000;
    return n >= 1 && fraction != 5_100 && fraction != 5_200;
  }

  /** The next usable number after {@code n}. */
  public static long next(long n) {
    long m = n + 1;
    while (!usable(m)) {
      m++;
    }
    return m;
  }

  /** The amount of intent {@code n} of {@code kind}, as sent and as the shop answers it. */
  public static String amount(Kind kind, long n) {
    if (!usable(n)) {
      throw new IllegalArgumentException("not a usable intent number: " + n);
    }
    return kind.base.add(BigDecimal.valueOf(n, 4)).setScale(4).toPlainString();
  }

  /**
   * The intent number that {@code amount} (as the shop answers it, unsigned) encodes for {@code
   * kind}, or -1 if it encodes none.
   */
  public static long decode(Kind kind, String amount) {
    BigDecimal value;
    try {
      value = new BigDecimal(amount).abs();
    } catch (NumberFormatException e) {
      return -1;
    }
    BigDecimal n = value.subtract(kind.base).movePointRight(4);
    if (n.signum() <= 0 || n.stripTrailingZeros().scale() > 0) {
      return -1;
    }
    long number = n.longValueExact();
    return usable(number) ? number : -1;
  }
}
