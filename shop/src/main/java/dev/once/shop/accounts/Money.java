package dev.once.shop.accounts;

import dev.once.shop.web.InvalidRequestException;
import dev.once.shop.web.ShopProblem;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The wire format of money. An amount is a JSON string of plain ASCII digits with at most 16
 * integer and 4 fraction digits, greater than zero ({@code "12.50"}); anything else, a JSON number
 * included, is refused so that binary floating point never touches money. In Java amounts are
 * {@link BigDecimal} with scale {@value #SCALE}, and they are always printed with exactly 4
 * fraction digits ({@code "12.5000"}): the scale the ledger stores, one spelling per value.
 * Currencies are upper-case ISO 4217 codes that {@link Currency} knows as money with minor units:
 * the codes without any ({@link Currency#getDefaultFractionDigits()} is -1: {@code XXX} "no
 * currency", {@code XTS} testing, the metals {@code XAU XAG XPT XPD}, units of account such as
 * {@code XDR}) are refused, as nobody can hold an account or pay in them.
 */
public final class Money {
  /** Fraction digits of every stored and printed amount. */
  public static final int SCALE = 4;

  /** Integer digits of the largest accepted amount. */
  public static final int MAX_INTEGER_DIGITS = 16;

  private static final Pattern AMOUNT = Pattern.compile("[0-9]{1,16}(\\.[0-9]{1,4})?");
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final int MAX_AMOUNT_LENGTH = 21;

  private Money() {}

  /**
   * The positive amount in {@code node}.
   *
   * @throws InvalidRequestException {@code invalid-amount}
   */
  public static BigDecimal parseAmount(String field, JsonNode node) {
    if (!node.isString()) {
      throw invalidAmount(
          field, "Field '" + field + "' must be a JSON string such as \"12.50\", not a number.");
    }
    String text = node.stringValue();
    if (text.length() > MAX_AMOUNT_LENGTH || !AMOUNT.matcher(text).matches()) {
      throw invalidAmount(
          field,
          "Field '"
              + field
              + "' must be plain digits with at most 16 integer and 4 fraction digits, such as"
              + " \"12.50\".");
    }
    BigDecimal amount = new BigDecimal(text).setScale(SCALE, RoundingMode.UNNECESSARY);
    if (amount.signum() <= 0) {
      throw invalidAmount(field, "Field '" + field + "' must be greater than zero.");
    }
    return amount;
  }

  /**
   * The currency code in {@code node}.
   *
   * @throws InvalidRequestException {@code invalid-currency}
   */
  public static String parseCurrency(String field, JsonNode node) {
    String code = node.isString() ? node.stringValue() : "";
    if (!CURRENCY.matcher(code).matches() || !isKnown(code)) {
      throw new InvalidRequestException(
          ShopProblem.INVALID_CURRENCY,
          field,
          "Field '"
              + field
              + "' must be the upper-case ISO 4217 code of a currency such as \"EUR\" (not a"
              + " metal, unit of account or testing code).");
    }
    return code;
  }

  /** The wire form of a stored amount: plain digits, a sign if negative, 4 fraction digits. */
  public static String format(BigDecimal amount) {
    return amount.setScale(SCALE, RoundingMode.UNNECESSARY).toPlainString();
  }

  /** Known to Java and money: metals, units of account and XTS/XXX have no minor units (-1). */
  private static boolean isKnown(String code) {
    try {
      return Currency.getInstance(code).getDefaultFractionDigits() >= 0;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static InvalidRequestException invalidAmount(String field, String detail) {
    return new InvalidRequestException(ShopProblem.INVALID_AMOUNT, field, detail);
  }
}
