package dev.once.json;

import java.util.Arrays;

/**
 * Writes number literals by their exact decimal value, never rounded to a double.
 *
 * <p>The value of a literal is normalised to a sign, its significant digits d1..dk (no leading or
 * trailing zeros) and the decimal exponent n with value = 0.d1..dk * 10^n, and then laid out by the
 * rules of ECMA-262 7.1.12.1 (Number::toString) steps 6 to 10: plain notation for -6 &lt; n &lt;=
 * 21, otherwise {@code d1.d2..dke+N} or {@code d1.d2..dke-N} with N = |n - 1|. Every spelling of a
 * value (and every spelling of zero, {@code -0} included) therefore has one form, and different
 * values have different forms. A literal that is the shortest round-trip form of a double is
 * written exactly as {@link EcmaScriptNumbers} writes that double.
 *
 * <p>The cost is linear in the length of the literal, whatever its exponent: the significant digits
 * are copied from the input, plain notation adds at most 21 zeros, and an exponent too long for a
 * {@code long} is adjusted by decimal digit arithmetic instead of {@link java.math.BigInteger}
 * (whose parsing is quadratic). Stateless and thread-safe.
 */
final class ExactNumbers {
  /** Exponents with at most this many digits (after leading zeros) are handled as a long. */
  private static final int LONG_EXPONENT_DIGITS = 18;

  private static final long TEN_TO_THE_18 = 1_000_000_000_000_000_000L;

  private ExactNumbers() {}

  static void write(byte[] in, NumberLiteral literal, CanonicalOutput out) {
    Significand digits = Significand.of(in, literal);
    if (digits == null) {
      out.write('0'); // every spelling of zero, -0 included (as RFC 8785 does)
      return;
    }
    if (literal.negative()) {
      out.write('-');
    }
    int expStart = literal.hasExponent() ? skipZeros(in, literal.expStart(in), literal.end()) : 0;
    if (literal.hasExponent() && literal.end() - expStart > LONG_EXPONENT_DIGITS) {
      // |exponent| >= 10^18, so |n| is far above 21: exponential notation with
      // N = |n - 1| = |exponent + pointShift - 1|, whose sign is the exponent's.
      writeMantissa(in, digits, out);
      out.write('e');
      boolean negative = literal.negativeExponent(in);
      out.write(negative ? '-' : '+');
      long delta = digits.pointShift() - 1L;
      writeSum(in, expStart, literal.end(), negative ? -delta : delta, out);
      return;
    }
    long exponent = literal.hasExponent() ? parseLong(in, expStart, literal.end()) : 0;
    long n = (literal.negativeExponent(in) ? -exponent : exponent) + digits.pointShift();
    layOut(in, digits, n, out);
  }

  /** Writes 0.d1..dk * 10^n by ECMA-262 7.1.12.1 steps 7 to 10. */
  private static void layOut(byte[] in, Significand digits, long n, CanonicalOutput out) {
    int k = digits.count();
    if (k <= n && n <= 21) {
      digits.write(in, 0, k, out);
      writeZeros((int) n - k, out);
    } else if (0 < n && n <= 21) {
      digits.write(in, 0, (int) n, out);
      out.write('.');
      digits.write(in, (int) n, k, out);
    } else if (-6 < n && n <= 0) {
      out.write('0');
      out.write('.');
      writeZeros((int) -n, out);
      digits.write(in, 0, k, out);
    } else {
      writeMantissa(in, digits, out);
      out.write('e');
      out.write(n - 1 < 0 ? '-' : '+');
      writeAscii(Long.toString(Math.abs(n - 1)), out);
    }
  }

  /** Writes {@code d1} or {@code d1.d2..dk}, the mantissa of the exponential notation. */
  private static void writeMantissa(byte[] in, Significand digits, CanonicalOutput out) {
    digits.write(in, 0, 1, out);
    if (digits.count() > 1) {
      out.write('.');
      digits.write(in, 1, digits.count(), out);
    }
  }

  /**
   * Writes the decimal digits of D + delta, where D is the number written in {@code in[from, to)}
   * with no leading zero and more than 18 digits, and |delta| &lt;= 2^31, so the sum is positive.
   * Only the last 18 digits take part in the addition; a carry or borrow runs into the rest.
   */
  private static void writeSum(byte[] in, int from, int to, long delta, CanonicalOutput out) {
    int split = to - LONG_EXPONENT_DIGITS;
    long low = parseLong(in, split, to) + delta;
    byte[] high = Arrays.copyOfRange(in, from, split);
    int i = high.length - 1;
    int skip = 0;
    if (low >= TEN_TO_THE_18) {
      low -= TEN_TO_THE_18;
      while (i >= 0 && high[i] == '9') {
        high[i--] = '0';
      }
      if (i < 0) {
        out.write('1'); // 99..9 + 1 = 100..0
      } else {
        high[i]++;
      }
    } else if (low < 0) {
      low += TEN_TO_THE_18;
      while (high[i] == '0') {
        high[i--] = '9';
      }
      high[i]--;
      skip = high[0] == '0' ? 1 : 0; // 100..0 - 1 = 099..9
    }
    out.write(high, skip, high.length - skip);
    String lowDigits = Long.toString(low);
    writeZeros(LONG_EXPONENT_DIGITS - lowDigits.length(), out);
    writeAscii(lowDigits, out);
  }

  private static int skipZeros(byte[] in, int from, int to) {
    while (from < to && in[from] == '0') {
      from++;
    }
    return from;
  }

  /** Parses at most 18 decimal digits. */
  private static long parseLong(byte[] in, int from, int to) {
    long value = 0;
    for (int i = from; i < to; i++) {
      value = value * 10 + (in[i] - '0');
    }
    return value;
  }

  private static void writeZeros(int count, CanonicalOutput out) {
    for (int i = 0; i < count; i++) {
      out.write('0');
    }
  }

  private static void writeAscii(String s, CanonicalOutput out) {
    for (int i = 0; i < s.length(); i++) {
      out.write(s.charAt(i));
    }
  }

  /**
   * The significant digits of a non-zero literal: from its first to its last non-zero digit, which
   * may have the literal's decimal point between them.
   *
   * @param first input index of the first significant digit
   * @param last input index of the last significant digit
   * @param point input index of a decimal point between them, or {@link Integer#MAX_VALUE} if there
   *     is none
   * @param pointShift n in value = 0.d1..dk * 10^(n + exponent): how many digit places the decimal
   *     point of the literal lies after the first significant digit (negative if before it)
   */
  private record Significand(int first, int last, int point, int pointShift) {

    /** Returns the significant digits of {@code literal}, or null if its value is zero. */
    static Significand of(byte[] in, NumberLiteral literal) {
      int intEnd = literal.intEnd();
      int first = skipZeros(in, literal.intStart(), intEnd);
      if (first == intEnd && literal.hasFraction()) {
        first = skipZeros(in, literal.fracStart(), literal.fracEnd());
        if (first == literal.fracEnd()) {
          return null;
        }
        return new Significand(
            first,
            lastNonZero(in, literal.fracEnd()),
            Integer.MAX_VALUE,
            -(first - literal.fracStart()));
      }
      if (first == intEnd) {
        return null;
      }
      // Runs back over a fraction of zeros and the decimal point into the integer part if need be.
      int last = lastNonZero(in, literal.hasFraction() ? literal.fracEnd() : intEnd);
      return new Significand(
          first, last, last > intEnd ? intEnd : Integer.MAX_VALUE, intEnd - first);
    }

    /** Index of the last non-zero digit before {@code end}, skipping zeros and a decimal point. */
    private static int lastNonZero(byte[] in, int end) {
      int i = end - 1;
      while (in[i] == '0' || in[i] == '.') {
        i--;
      }
      return i;
    }

    int count() {
      return last - first + 1 - (point < last ? 1 : 0);
    }

    /** Writes significant digits {@code from} (inclusive) to {@code to} (exclusive), 0-based. */
    void write(byte[] in, int from, int to, CanonicalOutput out) {
      int a = first + from;
      int b = first + to;
      if (a < point) {
        out.write(in, a, Math.min(b, point) - a);
      }
      if (b > point) {
        int c = Math.max(a, point) + 1;
        out.write(in, c, b + 1 - c);
      }
    }
  }
}
