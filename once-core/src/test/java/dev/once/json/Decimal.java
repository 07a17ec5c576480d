package dev.once.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

/**
 * An exact decimal value for tests, with its own reference canonical form and random spellings.
 * Value = (negative ? -1 : 1) * 0.digits * 10^exponent; {@code digits} has no leading or trailing
 * zero and is empty for zero. The exponent is a BigInteger so that values far outside the range of
 * a double can be written; the record's equality is therefore value equality.
 */
record Decimal(boolean negative, String digits, BigInteger exponent) {
  static final Decimal ZERO = new Decimal(false, "", BigInteger.ZERO);

  Decimal {
    if (!digits.isEmpty() && (digits.charAt(0) == '0' || digits.endsWith("0"))) {
      throw new IllegalArgumentException("not normalised: " + digits);
    }
  }

  /**
   * Normalises {@code sign 0.rawDigits * 10^exponent}, where rawDigits may have zeros at the ends.
   */
  static Decimal of(boolean negative, String rawDigits, BigInteger exponent) {
    int first = 0;
    while (first < rawDigits.length() && rawDigits.charAt(first) == '0') {
      first++;
    }
    if (first == rawDigits.length()) {
      return ZERO;
    }
    int end = rawDigits.length();
    while (rawDigits.charAt(end - 1) == '0') {
      end--;
    }
    return new Decimal(
        negative, rawDigits.substring(first, end), exponent.subtract(BigInteger.valueOf(first)));
  }

  static Decimal of(BigDecimal value) {
    String unscaled = value.unscaledValue().abs().toString();
    BigInteger exponent =
        BigInteger.valueOf(unscaled.length()).subtract(BigInteger.valueOf(value.scale()));
    return of(value.signum() < 0, unscaled, exponent);
  }

  boolean isZero() {
    return digits.isEmpty();
  }

  /**
   * The canonical form by the rules of ECMA-262 Number::toString steps 6-10, computed with
   * BigInteger arithmetic independently of the code under test.
   */
  String canonical() {
    if (isZero()) {
      return "0";
    }
    String sign = negative ? "-" : "";
    int k = digits.length();
    if (exponent.compareTo(BigInteger.valueOf(-6)) > 0
        && exponent.compareTo(BigInteger.valueOf(21)) <= 0) {
      int n = exponent.intValueExact();
      if (k <= n) {
        return sign + digits + "0".repeat(n - k);
      }
      if (n > 0) {
        return sign + digits.substring(0, n) + "." + digits.substring(n);
      }
      return sign + "0." + "0".repeat(-n) + digits;
    }
    BigInteger e = exponent.subtract(BigInteger.ONE);
    String mantissa = k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + "e" + (e.signum() < 0 ? "-" : "+") + e.abs();
  }

  /**
   * A random valid JSON spelling of this value: leading zeros before the digits and trailing zeros
   * after them, the decimal point anywhere (the exponent adjusted to match), {@code e} or {@code
   * E}, an optional {@code +}, zeros in front of the exponent's digits, and for zero any sign.
   */
  String spell(Random random) {
    int leading = random.nextInt(4) == 0 ? random.nextInt(30) : random.nextInt(3);
    int trailing = random.nextInt(4) == 0 ? random.nextInt(30) : random.nextInt(3);
    String padded = "0".repeat(leading) + (isZero() ? "0" : digits) + "0".repeat(trailing);
    int point = random.nextInt(padded.length() + 1); // how many digits stand before the point
    String integer = padded.substring(0, point).replaceFirst("^0+", "");
    String fraction = padded.substring(point);
    // 0.padded * 10^point = 0.digits * 10^(point - leading), so the literal needs this exponent:
    BigInteger literalExponent =
        isZero()
            ? BigInteger.valueOf(random.nextInt(2000) - 1000)
            : exponent.subtract(BigInteger.valueOf(point - leading));
    StringBuilder s = new StringBuilder();
    if (negative || (isZero() && random.nextBoolean())) {
      s.append('-');
    }
    s.append(integer.isEmpty() ? "0" : integer);
    if (!fraction.isEmpty()) {
      s.append('.').append(fraction);
    }
    if (literalExponent.signum() != 0 || random.nextBoolean()) {
      s.append(random.nextBoolean() ? 'e' : 'E');
      if (literalExponent.signum() < 0) {
        s.append('-');
      } else if (random.nextBoolean()) {
        s.append('+');
      }
      s.append("0".repeat(random.nextInt(3))).append(literalExponent.abs());
    }
    return s.toString();
  }
}
