package dev.once.json;

import java.nio.charset.StandardCharsets;

/**
 * Serialises doubles exactly as ECMAScript {@code Number.prototype.toString} does (ECMA-262
 * 7.1.12.1), which is the number format RFC 8785 section 3.2.2.3 prescribes.
 *
 * <p>The digits are the shortest decimal that reads back as the same double; among several such
 * decimals the one closest to the exact binary value is chosen (ties: even last digit), as in
 * ECMA-262 Note 2. They are found with the Schubfach algorithm (R. Giulietti, "The Schubfach way to
 * render doubles", 2020), adapted to allow one-digit results, so the cost is a few multiplications
 * and no allocation beyond the result. {@code -0} is written {@code 0}.
 *
 * <p>All methods are stateless and thread-safe.
 */
final class EcmaScriptNumbers {
  /** Upper bound on the length of any result, e.g. {@code -1.2345678901234567e-308}. */
  static final int MAX_LENGTH = 32;

  private static final int Q_MIN = -1074;
  private static final long C_MIN = 1L << 52;
  private static final long C_TINY = 3;
  private static final long MASK_63 = (1L << 63) - 1;
  private static final long[] POW10 = new long[18];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private EcmaScriptNumbers() {}

  /**
   * Returns the ECMAScript string form of {@code value}, e.g. {@code 1e+21}, {@code 0.000001},
   * {@code 9.999999999999997e-7}, {@code 333333333.3333333}.
   *
   * @throws IllegalArgumentException if {@code value} is NaN or infinite (JSON cannot represent it)
   */
  static String format(double value) {
    byte[] chars = new byte[MAX_LENGTH];
    int length = write(value, chars, 0);
    return new String(chars, 0, length, StandardCharsets.ISO_8859_1);
  }

  /**
   * Writes the ECMAScript form of {@code value} as ASCII into {@code dst} from {@code at}, which
   * must have room for {@link #MAX_LENGTH} bytes, and returns the index after the last byte.
   */
  static int write(double value, byte[] dst, int at) {
    long bits = Double.doubleToRawLongBits(value);
    int biasedExponent = (int) (bits >>> 52) & 0x7FF;
    long fraction = bits & (C_MIN - 1);
    if (biasedExponent == 0x7FF) {
      throw new IllegalArgumentException("NaN and infinite values have no JSON representation");
    }
    if (biasedExponent == 0 && fraction == 0) {
      dst[at] = '0'; // both +0 and -0
      return at + 1;
    }
    if (bits < 0) {
      dst[at++] = '-';
    }
    if (biasedExponent == 0) { // subnormal
      return fraction < C_TINY
          ? toDecimal(Q_MIN, 10 * fraction, -1, dst, at)
          : toDecimal(Q_MIN, fraction, 0, dst, at);
    }
    int minusQ = 1075 - biasedExponent;
    long c = C_MIN | fraction;
    if (minusQ > 0 && minusQ < 53) {
      long integer = c >> minusQ;
      if (integer << minusQ == c) { // an integer below 2^53 is its own shortest form
        return layout(integer, 0, dst, at);
      }
    }
    return toDecimal(-minusQ, c, 0, dst, at);
  }

  /**
   * Finds the shortest, then closest, decimal for {@code c * 2^q} and lays it out. The result is
   * multiplied by {@code 10^dk} (dk = -1 when c was pre-multiplied by 10 for tiny subnormals).
   */
  private static int toDecimal(int q, long c, int dk, byte[] dst, int at) {
    // Work in units of 2^(q-2): the value is cb and its rounding interval is [cbl, cbr], closed
    // when c is even (round half to even reads the boundaries back as c) and open otherwise.
    int out = (int) c & 1;
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != C_MIN || q == Q_MIN) {
      cbl = cb - 2;
      k = flog10pow2(q);
    } else { // lower neighbour is half as far away at a power of two
      cbl = cb - 1;
      k = flog10threeQuartersPow2(q);
    }
    int h = q + flog2pow10(-k) + 2;
    long g1 = PowersOfTen.g1(k);
    long g0 = PowersOfTen.g0(k);
    // vb, vbl, vbr ~ 4 * (value, lower bound, upper bound) * 10^-k, rounded to odd
    long vb = roundToOdd(g1, g0, cb << h);
    long vbl = roundToOdd(g1, g0, cbl << h);
    long vbr = roundToOdd(g1, g0, cbr << h);
    long s = vb >> 2;
    if (s >= 10) {
      // At most one multiple of 10^(k+1) fits in the interval; if one does it is the shortest.
      long sp10 = s / 10 * 10;
      long tp10 = sp10 + 10;
      boolean upin = vbl + out <= sp10 << 2;
      boolean wpin = (tp10 << 2) + out <= vbr;
      if (upin != wpin) {
        return layout(upin ? sp10 : tp10, k + dk, dst, at);
      }
    }
    long t = s + 1;
    boolean uin = vbl + out <= s << 2;
    boolean win = (t << 2) + out <= vbr;
    if (uin != win) {
      return layout(uin ? s : t, k + dk, dst, at);
    }
    long cmp = vb - (s + t << 1); // both fit: take the closer one, ties to even
    return layout(cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : t, k + dk, dst, at);
  }

  /** Returns floor(g * cp / 2^127) with its lowest bit set if the division was inexact. */
  private static long roundToOdd(long g1, long g0, long cp) {
    long x1 = Math.multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = Math.multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | ((z & MASK_63) + MASK_63) >>> 63;
  }

  /** Writes {@code f * 10^e} (f &gt; 0) using the layout rules of ECMA-262 7.1.12.1 step 6-10. */
  private static int layout(long f, int e, byte[] dst, int at) {
    while (f % 10 == 0) {
      f /= 10;
      e++;
    }
    int k = 1;
    while (k < POW10.length && f >= POW10[k]) {
      k++;
    }
    int n = k + e;
    if (k <= n && n <= 21) {
      at = digits(f, k, dst, at);
      for (int i = k; i < n; i++) {
        dst[at++] = '0';
      }
      return at;
    }
    if (0 < n && n <= 21) {
      at = digits(f / POW10[k - n], n, dst, at);
      dst[at++] = '.';
      return digits(f % POW10[k - n], k - n, dst, at);
    }
    if (-6 < n && n <= 0) {
      dst[at++] = '0';
      dst[at++] = '.';
      for (int i = n; i < 0; i++) {
        dst[at++] = '0';
      }
      return digits(f, k, dst, at);
    }
    at = digits(f / POW10[k - 1], 1, dst, at);
    if (k > 1) {
      dst[at++] = '.';
      at = digits(f % POW10[k - 1], k - 1, dst, at);
    }
    dst[at++] = 'e';
    int exponent = n - 1;
    dst[at++] = exponent < 0 ? (byte) '-' : (byte) '+';
    exponent = Math.abs(exponent);
    int width = exponent >= 100 ? 3 : exponent >= 10 ? 2 : 1;
    return digits(exponent, width, dst, at);
  }

  /** Writes exactly {@code count} decimal digits of {@code v}, zero-padded on the left. */
  private static int digits(long v, int count, byte[] dst, int at) {
    for (int i = at + count - 1; i >= at; i--) {
      dst[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return at + count;
  }

  /** floor(e * log10(2)), exact for all binary exponents of doubles (verified by tests). */
  static int flog10pow2(int e) {
    return (int) (e * 661_971_961_083L >> 41);
  }

  /** floor(log10(3/4 * 2^e)), exact for all binary exponents of doubles (verified by tests). */
  static int flog10threeQuartersPow2(int e) {
    return (int) (e * 661_971_961_083L - 274_743_187_321L >> 41);
  }

  /** floor(e * log2(10)), exact for all decimal exponents of doubles (verified by tests). */
  static int flog2pow10(int e) {
    return (int) (e * 1_741_647L >> 19);
  }
}
