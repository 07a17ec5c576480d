package dev.once.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EcmaScriptNumbersTest {

  private static double fromHex(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  @Test
  void matchesAllTenThousandEs6Vectors() throws IOException {
    List<String> lines = JcsTestVectors.numberLines();
    List<String> mismatches = new ArrayList<>();
    for (String line : lines) {
      int comma = line.indexOf(',');
      String hex = line.substring(0, comma);
      String expected = line.substring(comma + 1);
      double d = fromHex(hex);
      String actual = EcmaScriptNumbers.format(d);
      if (!actual.equals(expected)) {
        mismatches.add(hex + ": expected " + expected + " but got " + actual);
      }
      double back = Double.parseDouble(expected);
      boolean sameDouble =
          d == 0 ? back == 0 : Double.doubleToRawLongBits(back) == Double.doubleToRawLongBits(d);
      if (!sameDouble) {
        mismatches.add(hex + ": expected string " + expected + " does not read back");
      }
    }
    assertThat(mismatches)
        .as("%d mismatches, first few: %s", mismatches.size(), first(mismatches, 5))
        .isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "4340000000000001, 9007199254740994",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "0, 0",
    "8000000000000000, 0",
    "1, 5e-324",
    "2, 1e-323",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "0010000000000000, 2.2250738585072014e-308",
    "3ff0000000000000, 1",
    "bff0000000000000, -1",
    "4059000000000000, 100",
    "3fb999999999999a, 0.1",
    "4415af1d78b58c40, 100000000000000000000",
    "44b52d02c7e14af6, 1e+23",
    "3e7ad7f29abcaf48, 1e-7",
    "3f50624dd2f1a9fc, 0.001",
    "41b4b230ce7a5f10, 347222222.47801304"
  })
  void formatsKnownValues(String hex, String expected) {
    double d = fromHex(hex);
    assertThat(EcmaScriptNumbers.format(d)).isEqualTo(expected);
    assertThat(ReferenceNumbers.format(d)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"7fffffffffffffff", "7ff8000000000000", "7ff0000000000000", "fff0000000000000"})
  void rejectsNanAndInfinities(String hex) {
    double d = fromHex(hex);
    assertThatThrownBy(() -> EcmaScriptNumbers.format(d))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void agreesWithBigDecimalReferenceOnRandomDoubles() {
    SplittableRandom random = new SplittableRandom(8785);
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) {
        check(d, mismatches);
      }
    }
    for (int i = 0; i < 5_000; i++) { // "human" decimals
      check(random.nextInt(1_000_000) / Math.pow(10, random.nextInt(30)), mismatches);
    }
    assertThat(mismatches).as("first few: %s", first(mismatches, 5)).isEmpty();
  }

  @Test
  void agreesWithReferenceOnPowersOfTwoAndTheirNeighbours() {
    List<String> mismatches = new ArrayList<>();
    for (int e = -1074; e <= 1023; e++) {
      double p = Math.scalb(1.0, e);
      check(p, mismatches);
      check(Math.nextUp(p), mismatches);
      check(Math.nextDown(p), mismatches);
    }
    check(Double.MAX_VALUE, mismatches);
    assertThat(mismatches).as("first few: %s", first(mismatches, 5)).isEmpty();
  }

  @Test
  void agreesWithReferenceOnSmallSubnormals() {
    List<String> mismatches = new ArrayList<>();
    for (long bits = 1; bits <= 3_000; bits++) {
      check(Double.longBitsToDouble(bits), mismatches);
    }
    assertThat(mismatches).as("first few: %s", first(mismatches, 5)).isEmpty();
  }

  @Test
  void agreesWithReferenceOnPowersOfTenAndIntegers() {
    List<String> mismatches = new ArrayList<>();
    for (int e = -325; e <= 308; e++) {
      double d = Double.parseDouble("1e" + e);
      check(d, mismatches);
      check(Math.nextUp(d), mismatches);
      check(Math.nextDown(d), mismatches);
    }
    for (long v = (1L << 53) - 50; v <= (1L << 53) + 50; v++) {
      check(v, mismatches);
    }
    assertThat(mismatches).as("first few: %s", first(mismatches, 5)).isEmpty();
  }

  @Test
  void floorLogarithmHelpersAreExactOverTheDoubleRange() {
    for (int e = -1200; e <= 1200; e++) {
      BigDecimal pow2 = pow2(e);
      assertThat(floorLog10(pow2))
          .as("flog10pow2(%d)", e)
          .isEqualTo(EcmaScriptNumbers.flog10pow2(e));
      assertThat(floorLog10(pow2.multiply(new BigDecimal("0.75"))))
          .as("flog10threeQuartersPow2(%d)", e)
          .isEqualTo(EcmaScriptNumbers.flog10threeQuartersPow2(e));
    }
    for (int e = -400; e <= 400; e++) {
      BigDecimal pow10 = BigDecimal.ONE.scaleByPowerOfTen(e);
      int r = EcmaScriptNumbers.flog2pow10(e);
      assertThat(pow2(r).compareTo(pow10)).as("2^%d <= 10^%d", r, e).isLessThanOrEqualTo(0);
      assertThat(pow2(r + 1).compareTo(pow10)).as("10^%d < 2^%d", e, r + 1).isGreaterThan(0);
    }
  }

  @Test
  void powerOfTenTableIsTheCeilingOfA126BitApproximation() {
    for (int k = PowersOfTen.K_MIN; k <= PowersOfTen.K_MAX; k++) {
      BigInteger g = PowersOfTen.g(k);
      assertThat(g.bitLength()).as("k=%d", k).isEqualTo(126);
      int r = EcmaScriptNumbers.flog2pow10(-k) - 125;
      BigDecimal exact = BigDecimal.ONE.scaleByPowerOfTen(-k).divide(pow2(r));
      BigDecimal gd = new BigDecimal(g);
      assertThat(gd.subtract(BigDecimal.ONE).compareTo(exact)).as("k=%d", k).isLessThanOrEqualTo(0);
      assertThat(gd.compareTo(exact)).as("k=%d", k).isGreaterThan(0);
    }
  }

  private static BigDecimal pow2(int e) {
    return e >= 0
        ? new BigDecimal(BigInteger.ONE.shiftLeft(e))
        : BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(-e)));
  }

  private static int floorLog10(BigDecimal positive) {
    // value = unscaled * 10^-scale; floor(log10) = digits(unscaled) - 1 - scale
    BigDecimal v = positive.stripTrailingZeros();
    return v.precision() - 1 - v.scale();
  }

  private static void check(double d, List<String> mismatches) {
    String expected = ReferenceNumbers.format(d);
    String actual = EcmaScriptNumbers.format(d);
    if (!expected.equals(actual)) {
      mismatches.add(
          Long.toHexString(Double.doubleToRawLongBits(d))
              + ": expected "
              + expected
              + " but got "
              + actual);
    }
  }

  private static List<String> first(List<String> list, int n) {
    return list.subList(0, Math.min(n, list.size()));
  }
}
