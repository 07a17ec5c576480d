package dev.once.psp;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A positive money amount as the merchant wrote it (a JSON string such as {@code "12.50"}: at most
 * 16 integer and 4 fraction digits). Two amounts are equal when their values are ({@code "12.5"}
 * equals {@code "12.50"}), which is what an idempotent replay compares.
 */
final class Amount {
  private static final Pattern FORMAT = Pattern.compile("(0|[1-9][0-9]{0,15})(\\.[0-9]{1,4})?");

  final String text;
  final BigDecimal value;

  private Amount(String text, BigDecimal value) {
    this.text = text;
    this.value = value;
  }

  /** Parses {@code text} or throws a 422 problem naming {@code field}. */
  static Amount parse(String field, String text) {
    if (!FORMAT.matcher(text).matches()) {
      throw Problem.invalidRequest(
          field,
          field
              + " must be a positive decimal string with at most 16 integer and 4 fraction"
              + " digits, such as \"12.50\".");
    }
    BigDecimal value = new BigDecimal(text);
    if (value.signum() <= 0) {
      throw Problem.invalidRequest(field, field + " must be greater than zero.");
    }
    return new Amount(text, value);
  }

  /** Whether the fraction is exactly {@code cents}/100, e.g. .51 for "10.51" and "0.5100". */
  boolean fractionIs(int cents) {
    BigDecimal fraction = value.remainder(BigDecimal.ONE);
    return fraction.compareTo(BigDecimal.valueOf(cents, 2)) == 0;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Amount that && value.compareTo(that.value) == 0;
  }

  @Override
  public int hashCode() {
    return value.stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
