package dev.once.json;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * Writes number literals as RFC 8785 prescribes: the literal is read as the nearest IEEE-754 double
 * and that double is written in ECMAScript form, so different values that round to the same double
 * share one form. Literals outside the range of a double are refused. Stateless and thread-safe.
 */
final class DoubleNumbers {
  private static final double[] EXACT_POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  /** Integers with at most this many digits are exact doubles and already in canonical form. */
  private static final int MAX_VERBATIM_INTEGER_DIGITS = 15;

  private DoubleNumbers() {}

  /**
   * Writes the RFC 8785 form of {@code literal} to {@code out}.
   *
   * @throws MalformedJsonException if the literal is outside the range of a double
   */
  static void write(byte[] in, NumberLiteral literal, CanonicalOutput out) {
    long mantissa = 0;
    int significantDigits = 0;
    for (int pos = literal.intStart(); pos < literal.intEnd(); pos++) {
      int d = in[pos] - '0';
      if ((mantissa != 0 || d != 0) && ++significantDigits <= 18) {
        mantissa = mantissa * 10 + d;
      }
    }
    int fractionDigits = 0;
    if (literal.hasFraction()) {
      for (int pos = literal.fracStart(); pos < literal.fracEnd(); pos++) {
        int d = in[pos] - '0';
        if ((mantissa != 0 || d != 0) && ++significantDigits <= 18) {
          mantissa = mantissa * 10 + d;
        }
        fractionDigits++;
      }
    }
    if (mantissa == 0 && significantDigits == 0) {
      out.write('0'); // every spelling of zero, including -0
      return;
    }
    int start = literal.start();
    int length = literal.end() - start;
    if (!literal.hasFraction()
        && !literal.hasExponent()
        && literal.end() - literal.intStart() <= MAX_VERBATIM_INTEGER_DIGITS) {
      out.write(in, start, length); // exact and already canonical
      return;
    }
    long power = exponent(in, literal) - fractionDigits;
    double value;
    if (significantDigits <= 15 && power >= -22 && power <= 22) {
      // Both operands are exact doubles, so one IEEE operation rounds correctly (Clinger).
      value =
          power >= 0
              ? mantissa * EXACT_POWERS_OF_TEN[(int) power]
              : mantissa / EXACT_POWERS_OF_TEN[(int) -power];
      if (literal.negative()) {
        value = -value;
      }
    } else {
      value = Double.parseDouble(new String(in, start, length, ISO_8859_1));
      if (Double.isInfinite(value)) {
        throw MalformedJsonException.at(start, "the number is outside the range of a double");
      }
    }
    out.writeNumber(value);
  }

  /** The literal's exponent, saturated at a million in magnitude (far beyond any double's). */
  private static long exponent(byte[] in, NumberLiteral literal) {
    if (!literal.hasExponent()) {
      return 0;
    }
    long exponent = 0;
    for (int pos = literal.expStart(in); pos < literal.end(); pos++) {
      if (exponent < 1_000_000) {
        exponent = exponent * 10 + (in[pos] - '0');
      }
    }
    return literal.negativeExponent(in) ? -exponent : exponent;
  }
}
