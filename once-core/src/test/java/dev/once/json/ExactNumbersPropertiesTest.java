package dev.once.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.Fingerprint;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/**
 * Exact numbers in both directions: every spelling of one value has one canonical form and one
 * fingerprint, and values that differ, however little, never share either. Values are checked
 * against {@link Decimal#canonical()}, a BigInteger reference of the same layout rules; exponents
 * reach far beyond the range of a double and beyond a long.
 */
class ExactNumbersPropertiesTest {
  private static final JsonCanonicalizer JCS = JsonCanonicalizer.create();

  @Property
  void everySpellingOfAValueHasItsOneCanonicalFormAndFingerprint(
      @ForAll("decimals") Decimal value, @ForAll Random random) {
    String first = value.spell(random);
    String second = value.spell(random);

    assertThat(JCS.canonicalize(first)).as(first).isEqualTo(value.canonical());
    assertThat(JCS.canonicalize(second)).as(second).isEqualTo(value.canonical());
    assertThat(JCS.canonicalize(value.canonical())).isEqualTo(value.canonical());
    assertThat(fingerprint(first)).isEqualTo(fingerprint(second));
  }

  @Property(tries = 300)
  void everySpellingOfZeroIsZero(@ForAll Random random) {
    String zero = Decimal.ZERO.spell(random);
    assertThat(JCS.canonicalize(zero)).as(zero).isEqualTo("0");
    assertThat(fingerprint(zero)).isEqualTo(fingerprint("0"));
  }

  @Property
  void differentValuesHaveDifferentFormsAndFingerprints(
      @ForAll("decimals") Decimal a, @ForAll("decimals") Decimal b, @ForAll Random random) {
    Assume.that(!a.equals(b));
    assertDiffer(a.spell(random), b.spell(random));
  }

  /** Values next to each other: one digit more, the last digit changed, a factor of ten, -x. */
  @Property
  void neighbouringValuesHaveDifferentFormsAndFingerprints(
      @ForAll("decimals") Decimal a,
      @ForAll @IntRange(min = 0, max = 5) int change,
      @ForAll Random random) {
    Decimal b = neighbour(a, change, random);
    Assume.that(!a.equals(b));
    assertDiffer(a.spell(random), b.spell(random));
  }

  @Property
  void integersBeyondTwoToThe53KeepEveryDigit(
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) long k,
      @ForAll @LongRange(min = 1, max = 1_000) long step) {
    BigInteger a = BigInteger.TWO.pow(53).add(BigInteger.valueOf(k));
    BigInteger b = a.add(BigInteger.valueOf(step));
    assertThat(JCS.canonicalize(a.toString())).isEqualTo(a.toString());
    assertThat(JCS.canonicalize(b + ".000")).isEqualTo(b.toString());
    assertDiffer(a.toString(), b.toString());
  }

  @Property
  void exponentsBeyondTheDoubleRangeAreKept(
      @ForAll @IntRange(min = 309, max = Integer.MAX_VALUE - 1) int e) {
    assertThat(JCS.canonicalize("1e" + e)).isEqualTo("1e+" + e);
    assertThat(JCS.canonicalize("1e-" + e)).isEqualTo("1e-" + e);
    assertDiffer("1e" + e, "1e" + (e + 1));
    assertDiffer("1e-" + e, "2e-" + e);
    assertDiffer("1e-" + e, "0");
    assertDiffer("-1e-" + e, "1e-" + e);
  }

  @Property
  void longFractionsThatDifferInTheLastDigitDiffer(
      @ForAll @NumericChars @StringLength(min = 40, max = 400) String fraction,
      @ForAll @IntRange(min = 1, max = 9) int change) {
    char last = fraction.charAt(fraction.length() - 1);
    String other =
        fraction.substring(0, fraction.length() - 1) + (char) ('0' + (last - '0' + change) % 10);
    assertDiffer("0." + fraction, "0." + other);
    assertDiffer("12345." + fraction + "e-7", "12345." + other + "e-7");
  }

  @Provide
  Arbitrary<Decimal> decimals() {
    Arbitrary<String> digits =
        Arbitraries.strings()
            .numeric()
            .ofMinLength(1)
            .ofMaxLength(60)
            .map(s -> s.replaceFirst("^0+", "").replaceFirst("0+$", ""))
            .filter(s -> !s.isEmpty());
    Arbitrary<BigInteger> exponents =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(
                6, Arbitraries.integers().between(-30, 30).map(BigInteger::valueOf)),
            net.jqwik.api.Tuple.of(
                2, Arbitraries.integers().between(-1_000, 1_000).map(BigInteger::valueOf)),
            net.jqwik.api.Tuple.of(3, hugeExponents()));
    return Combinators.combine(Arbitraries.of(true, false), digits, exponents).as(Decimal::new);
  }

  /**
   * Exponents of 18 digits and more, near powers of ten, so that moving the decimal point carries
   * into or borrows from the digits beyond a long.
   */
  private static Arbitrary<BigInteger> hugeExponents() {
    return Combinators.combine(
            Arbitraries.integers().between(17, 40),
            Arbitraries.integers().between(-40, 40),
            Arbitraries.of(1, -1))
        .as(
            (power, offset, sign) ->
                BigInteger.TEN
                    .pow(power)
                    .add(BigInteger.valueOf(offset))
                    .multiply(BigInteger.valueOf(sign)));
  }

  private static Decimal neighbour(Decimal a, int change, Random random) {
    String digits = a.digits();
    return switch (change) {
      case 0 -> new Decimal(!a.negative(), digits, a.exponent());
      case 1 -> new Decimal(a.negative(), digits + (1 + random.nextInt(9)), a.exponent());
      case 2 -> new Decimal(a.negative(), digits, a.exponent().add(BigInteger.ONE));
      case 3 -> new Decimal(a.negative(), digits, a.exponent().subtract(BigInteger.ONE));
      case 4 -> {
        int last = digits.charAt(digits.length() - 1) - '0';
        String changed = digits.substring(0, digits.length() - 1) + (last == 9 ? 8 : last + 1);
        yield new Decimal(a.negative(), changed, a.exponent());
      }
      default -> Decimal.ZERO;
    };
  }

  private static void assertDiffer(String first, String second) {
    assertThat(JCS.canonicalize(first))
        .as("%s vs %s", first, second)
        .isNotEqualTo(JCS.canonicalize(second));
    assertThat(fingerprint(first)).as("%s vs %s", first, second).isNotEqualTo(fingerprint(second));
  }

  private static Fingerprint fingerprint(String number) {
    byte[] body = ("{\"currency\":\"EUR\",\"n\":" + number + "}").getBytes(StandardCharsets.UTF_8);
    return Fingerprint.of("POST", "/v1/payments", "application/json", body, JCS);
  }
}
