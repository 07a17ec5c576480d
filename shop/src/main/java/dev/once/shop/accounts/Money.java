package dev.once.shop.accounts;

import dev.once.shop.web.ShopProblem;
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
 */
public final class Money {
  /** Fraction digits of every stored and printed amount. */
  public static final int SCALE = 4;

  private Money() {}

  /** The amount of a request field checked by {@link Amount}. */
  public static BigDecimal parse(String amount) {
    return new BigDecimal(amount).setScale(SCALE, RoundingMode.UNNECESSARY);
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
            + " than zero, such as \"12.50\"";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
  }

  /** A request field that holds a currency code; refused with {@code invalid-currency}. */
  @Documented
  @Constraint(validatedBy = Currency.Validator.class)
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
