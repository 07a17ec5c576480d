package dev.once.json;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/** Strict RFC 8259 number literals to RFC 8785 form. Stateless and thread-safe. */
final class NumberLiterals {
  private static final double[] EXACT_POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  /** Integers with at most this many digits are exact doubles and already in canonical form. */
  private static final int MAX_VERBATIM_INTEGER_DIGITS = 15;

  private NumberLiterals() {}

  /**
   * Parses the number literal starting at {@code start} (a '-' or a digit), writes its canonical
   * form to {@code out} and returns the index just after the literal.
   */
  static int parse(byte[] in, int start, int end, CanonicalOutput out) {
    int pos = start;
    boolean negative = in[pos] == '-';
    if (negative && (++pos == end || !isDigit(in[pos]))) {
      throw MalformedJsonException.at(pos, "a minus sign must be followed by a digit");
    }
    int intStart = pos;
    long mantissa = 0;
    int significantDigits = 0;
    if (in[pos] == '0') {
      pos++;
      if (pos < end && isDigit(in[pos])) {
        throw MalformedJsonException.at(intStart, "a number must not have leading zeros");
      }
    } else {
      while (pos < end && isDigit(in[pos])) {
        if (++significantDigits <= 18) {
          mantissa = mantissa * 10 + (in[pos] - '0');
        }
        pos++;
      }
    }
    boolean integer = true;
    int fractionDigits = 0;
    if (pos < end && in[pos] == '.') {
      integer = false;
      if (++pos == end || !isDigit(in[pos])) {
        throw MalformedJsonException.at(pos, "a decimal point must be followed by a digit");
      }
      while (pos < end && isDigit(in[pos])) {
        int d = in[pos] - '0';
        if ((mantissa != 0 || d != 0) && ++significantDigits <= 18) {
          mantissa = mantissa * 10 + d;
        }
        fractionDigits++;
        pos++;
      }
    }
    long exponent = 0;
    if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
      integer = false;
      pos++;
      boolean negativeExponent = pos < end && in[pos] == '-';
      if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
        pos++;
      }
      if (pos == end || !isDigit(in[pos])) {
        throw MalformedJsonException.at(pos, "an exponent must contain at least one digit");
      }
      while (pos < end && isDigit(in[pos])) {
        if (exponent < 1_000_000) {
          exponent = exponent * 10 + (in[pos] - '0');
        }
        pos++;
      }
      if (negativeExponent) {
        exponent = -exponent;
      }
    }
    if (mantissa == 0 && significantDigits == 0) {
      out.write('0'); // every spelling of zero, including -0
      return pos;
    }
    if (integer && pos - intStart <= MAX_VERBATIM_INTEGER_DIGITS) {
      out.write(in, start, pos - start); // exact and already canonical
      return pos;
    }
    double value;
    long power = exponent - fractionDigits;
    if (significantDigits <= 15 && power >= -22 && power <= 22) {
      // Both operands are exact doubles, so one IEEE operation rounds correctly (Clinger).
      value =
          power >= 0
              ? mantissa * EXACT_POWERS_OF_TEN[(int) power]
              : mantissa / EXACT_POWERS_OF_TEN[(int) -power];
      if (negative) {
        value = -value;
      }
    } else {
      value = Double.parseDouble(new String(in, start, pos - start, ISO_8859_1));
      if (Double.isInfinite(value)) {
        throw MalformedJsonException.at(start, "the number is outside the range of a double");
      }
    }
    out.writeNumber(value);
    return pos;
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }
}
