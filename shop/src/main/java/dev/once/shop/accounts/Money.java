package dev.once.shop.accounts;

import dev.once.shop.openapi.SchemaPattern;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Pattern;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.stream.Collectors;

/**
 * The wire format of money. An amount is a JSON string of plain ASCII digits with at most 16
 * integer and 4 fraction digits, greater than zero ({@code "12.50"}); anything else, a JSON number
 * included, is refused so that binary floating point never touches money. In Java amounts are
 * {@link BigDecimal} with scale {@value #SCALE}, and they are always printed with exactly 4
 * fraction digits ({@code "12.5000"}): the scale the ledger stores, one spelling per value.
 * Currencies are upper-case ISO 4217 codes that {@link java.util.Currency} knows as money with
 * minor units: the codes without any ({@link java.util.Currency#getDefaultFractionDigits()} is -1:
 * {@code XXX} "no currency", {@code XTS} testing, the metals {@code XAU XAG XPT XPD}, units of
 * account such as {@code XDR}) are refused, as nobody can hold an account or pay in them.
 *
 * <p>An amount must also fit its currency's minor units (ISO 4217, {@link
 * java.util.Currency#getDefaultFractionDigits()}: 2 for EUR, 0 for JPY, 3 for KWD, 4 for CLF). The
 * value decides, not the spelling: {@code "1.500"} EUR is 1.50 and fits, {@code "100.0"} JPY is 100
 * and fits, {@code "0.001"} EUR and {@code "1.5"} JPY do not ({@code invalid-amount}). Where the
 * currency is in the request (payments, products) {@link #parse(String, String, String)} checks it;
 * where it is the account's or the payment's (deposits, refunds), the statement that moves the
 * money checks it with {@link #minorUnitsSql(String)}, so that the check costs no extra query.
 */
public final class Money {
  /** Fraction digits of every stored and printed amount. */
  public static final int SCALE = 4;

  private Money() {}

  /** The amount of a request field checked by {@link Amount}. */
  public static BigDecimal parse(String amount) {
    return new BigDecimal(amount).setScale(SCALE, RoundingMode.UNNECESSARY);
  }

  /**
   * The amount of request field {@code field} checked by {@link Amount}, in {@code currency} (a
   * code checked by {@link Currency}).
   *
   * @throws InvalidRequestException {@code invalid-amount} if it has more fraction digits than the
   *     currency's minor units
   */
  public static BigDecimal parse(String amount, String currency, String field) {
    BigDecimal parsed = parse(amount);
    if (fractionDigits(parsed) > minorUnits(currency)) {
      throw tooPrecise(field, currency);
    }
    return parsed;
  }

  /**
   * The fraction digits {@code amount}'s value needs: 0 for {@code 12.0000}, 1 for {@code 1.5000},
   * 3 for {@code 0.0010}.
   */
  public static int fractionDigits(BigDecimal amount) {
    return Math.max(0, amount.stripTrailingZeros().scale());
  }

  /** The minor units of a currency code that {@link Currency} accepts (0 to 4). */
  public static int minorUnits(String currency) {
    return java.util.Currency.getInstance(currency).getDefaultFractionDigits();
  }

  /** The refusal of an amount that does not fit its currency's minor units. */
  public static InvalidRequestException tooPrecise(String field, String currency) {
    int units = minorUnits(currency);
    return new InvalidRequestException(
        ShopProblem.INVALID_AMOUNT,
        field,
        "An amount in "
            + currency
            + " has at most "
            + units
            + (units == 1 ? " fraction digit" : " fraction digits")
            + " (its ISO 4217 minor units).");
  }

  /**
   * A SQL expression of the minor units of the currency code in {@code column}, from the same table
   * as {@link #minorUnits(String)} (every code that {@link Currency} accepts and whose minor units
   * are not 2 is listed; the rest are 2), so that a statement can refuse an amount that does not
   * fit the currency of the row it reads.
   */
  public static String minorUnitsSql(String column) {
    return java.util.Currency.getAvailableCurrencies().stream()
        .filter(c -> c.getDefaultFractionDigits() >= 0 && c.getDefaultFractionDigits() != 2)
        .sorted(Comparator.comparing(java.util.Currency::getCurrencyCode))
        .map(c -> "WHEN '" + c.getCurrencyCode() + "' THEN " + c.getDefaultFractionDigits())
        .collect(Collectors.joining(" ", "(CASE " + column + " ", " ELSE 2 END)"));
  }

  /** The wire form of a stored amount: plain digits, a sign if negative, 4 fraction digits. */
  public static String format(BigDecimal amount) {
    return amount.setScale(SCALE, RoundingMode.UNNECESSARY).toPlainString();
  }

  /** A request field that holds an amount; refused with {@code invalid-amount}. */
  @Documented
  @Pattern(regexp = "(?=.*[1-9])[0-9]{1,16}(\\.[0-9]{1,4})?")
  @ReportAsSingleViolation
  @Constraint(validatedBy = {})
  @Target(ElementType.FIELD)
  @Retention(RetentionPolicy.RUNTIME)
  public @interface Amount {
    ShopProblem problem() default ShopProblem.INVALID_AMOUNT;

    String message() default
        "must be a JSON string of plain digits, at most 16 before and 4 after the point, greater"
            + " than zero, such as \"12.50\", and fit the currency's minor units";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
  }

  /** A request field that holds a currency code; refused with {@code invalid-currency}. */
  @Documented
  @Constraint(validatedBy = Currency.Validator.class)
  @SchemaPattern("^[A-Z]{3}$")
  @Target(ElementType.FIELD)
  @Retention(RetentionPolicy.RUNTIME)
  public @interface Currency {
    ShopProblem problem() default ShopProblem.INVALID_CURRENCY;

    String message() default
        "must be the upper-case ISO 4217 code of a currency such as \"EUR\" (not a metal, unit of"
            + " account or testing code)";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Known to Java and money: metals, units of account and XTS/XXX have no minor units (-1). */
    final class Validator implements ConstraintValidator<Currency, String> {
      @Override
      public boolean isValid(String code, ConstraintValidatorContext context) {
        if (code == null) {
          return true;
        }
        try {
          return isThreeCapitals(code)
              && java.util.Currency.getInstance(code).getDefaultFractionDigits() >= 0;
        } catch (IllegalArgumentException unknown) {
          return false;
        }
      }

      /** {@code [A-Z]{3}}, without compiling a pattern for every request. */
      private static boolean isThreeCapitals(String code) {
        return code.length() == 3 && code.chars().allMatch(c -> c >= 'A' && c <= 'Z');
      }
    }
  }
}
