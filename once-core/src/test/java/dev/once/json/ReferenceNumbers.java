package dev.once.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Slow, obviously correct ECMAScript number formatting used to cross-check {@link
 * EcmaScriptNumbers}: for p = 1..17 it tries the p-digit decimals just below and above the exact
 * value and keeps the closest one that reads back as the same double.
 */
final class ReferenceNumbers {
  private ReferenceNumbers() {}

  static String format(double d) {
    if (d == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(Math.abs(d));
    double target = Math.abs(d);
    for (int p = 1; p <= 17; p++) {
      BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
      BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
      boolean downOk = Double.parseDouble(down.toString()) == target;
      boolean upOk = Double.parseDouble(up.toString()) == target;
      BigDecimal chosen;
      if (downOk && upOk) {
        int cmp = exact.subtract(down).compareTo(up.subtract(exact));
        if (cmp != 0) {
          chosen = cmp < 0 ? down : up;
        } else {
          chosen = down.unscaledValue().testBit(0) ? up : down;
        }
      } else if (downOk) {
        chosen = down;
      } else if (upOk) {
        chosen = up;
      } else {
        continue;
      }
      return (d < 0 ? "-" : "") + layout(chosen.stripTrailingZeros());
    }
    throw new AssertionError("no round-tripping decimal found for " + d);
  }

  private static String layout(BigDecimal v) {
    String digits = v.unscaledValue().toString();
    int k = digits.length();
    int n = k - v.scale();
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    String mantissa = k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return mantissa + "e" + (n - 1 < 0 ? "-" : "+") + Math.abs(n - 1);
  }
}
