package dev.once.json;

import java.math.BigInteger;

/**
 * 126-bit approximations of the powers of ten used by {@link EcmaScriptNumbers}, computed exactly
 * once at class initialisation. For each k in [{@value #K_MIN}, {@value #K_MAX}], with r chosen so
 * that 2^125 &lt;= 10^-k / 2^r &lt; 2^126, g = floor(10^-k / 2^r) + 1 is stored as g1 = g / 2^63
 * and g0 = g mod 2^63. Immutable and thread-safe.
 */
final class PowersOfTen {
  static final int K_MIN = -324;
  static final int K_MAX = 292;

  private static final long[] G = compute();

  private PowersOfTen() {}

  static long g1(int k) {
    return G[(k - K_MIN) << 1];
  }

  static long g0(int k) {
    return G[((k - K_MIN) << 1) + 1];
  }

  /** Returns g for {@code k} exactly, for tests. */
  static BigInteger g(int k) {
    return BigInteger.valueOf(g1(k)).shiftLeft(63).or(BigInteger.valueOf(g0(k)));
  }

  private static long[] compute() {
    long[] table = new long[(K_MAX - K_MIN + 1) * 2];
    BigInteger mask63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
    for (int k = K_MIN; k <= K_MAX; k++) {
      int r = EcmaScriptNumbers.flog2pow10(-k) - 125;
      BigInteger floor;
      if (k <= 0) {
        BigInteger power = BigInteger.TEN.pow(-k);
        floor = r >= 0 ? power.shiftRight(r) : power.shiftLeft(-r);
      } else {
        floor = BigInteger.ONE.shiftLeft(-r).divide(BigInteger.TEN.pow(k));
      }
      BigInteger g = floor.add(BigInteger.ONE);
      int i = (k - K_MIN) << 1;
      table[i] = g.shiftRight(63).longValueExact();
      table[i + 1] = g.and(mask63).longValue();
    }
    return table;
  }
}
