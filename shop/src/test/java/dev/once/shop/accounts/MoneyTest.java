package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The money wire format: what parses, how it prints, and what is refused. A JSON number or other
 * non-string where an amount belongs is refused before this, while the body is read
 * (RequestBodyConverterTest).
 */
class MoneyTest {
  private static final Validator VALIDATOR =
      Validation.buildDefaultValidatorFactory().getValidator();

  record Wire(@Money.Amount String amount, @Money.Currency String currency) {}

  @ParameterizedTest
  @CsvSource({
    "1, 1.0000",
    "12.5, 12.5000",
    "12.50, 12.5000",
    "0.0001, 0.0001",
    "007, 7.0000",
    "9999999999999999.9999, 9999999999999999.9999"
  })
  void parsesAndPrintsWithFourFractionDigits(String wire, String printed) {
    assertThat(problems(new Wire(wire, null))).isEmpty();
    BigDecimal amount = Money.parse(wire);
    assertThat(amount.scale()).isEqualTo(Money.SCALE);
    assertThat(Money.format(amount)).isEqualTo(printed);
  }

  @ParameterizedTest
  @CsvSource({
    "150, JPY, 0",
    "150.0000, JPY, 0",
    "1.5, EUR, 1",
    "1.5000, EUR, 1",
    "0.001, KWD, 3",
    "0.0001, CLF, 4"
  })
  void countsTheFractionDigitsOfTheValueAgainstTheCurrencysMinorUnits(
      String wire, String currency, int digits) {
    BigDecimal amount = Money.parse(wire);
    assertThat(Money.fractionDigits(amount)).isEqualTo(digits);
    assertThat(Money.parse(wire, currency, "amount")).isEqualTo(amount);
  }

  @ParameterizedTest
  @CsvSource({"1.5, JPY", "0.001, EUR", "0.001, USD", "0.0001, KWD", "0.5, ISK"})
  void refusesAnAmountFinerThanItsCurrency(String wire, String currency) {
    InvalidRequestException refused =
        catchThrowableOfType(
            InvalidRequestException.class, () -> Money.parse(wire, currency, "price"));
    assertThat(refused.problem()).isEqualTo(ShopProblem.INVALID_AMOUNT);
    assertThat(refused.getBody().getDetail()).contains(currency);
  }

  @Test
  void theSqlOfMinorUnitsListsEveryCurrencyThatIsNotTwo() {
    String sql = Money.minorUnitsSql("currency");
    assertThat(sql)
        .startsWith("(CASE currency ")
        .endsWith(" ELSE 2 END)")
        .contains("WHEN 'JPY' THEN 0", "WHEN 'KWD' THEN 3", "WHEN 'BHD' THEN 3")
        .contains("WHEN 'CLF' THEN 4")
        .doesNotContain("'EUR'", "'USD'", "'XAU'", "'XXX'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "0.0",
        "-1",
        "+1",
        "1.00001",
        "12345678901234567",
        "1e2",
        "1E2",
        " 1",
        "1 ",
        "1,0",
        ".5",
        "5.",
        "",
        "Infinity",
        "0x1",
        "\u0661"
      })
  void refusesBadStrings(String wire) {
    assertThat(problems(new Wire(wire, null))).containsExactly(ShopProblem.INVALID_AMOUNT);
  }

  @Test
  void printsNegativeAmountsPlainly() {
    assertThat(Money.format(new BigDecimal("-30.25"))).isEqualTo("-30.2500");
    assertThat(Money.format(new BigDecimal("1E+3"))).isEqualTo("1000.0000");
  }

  @ParameterizedTest
  @ValueSource(strings = {"EUR", "USD", "JPY", "CHF"})
  void acceptsKnownCurrencies(String code) {
    assertThat(problems(new Wire(null, code))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"eur", "Eur", "EURO", "EU", "QQQ", "", "E1R", " EUR"})
  void refusesUnknownOrBadlySpeltCurrencies(String code) {
    assertThat(problems(new Wire(null, code))).containsExactly(ShopProblem.INVALID_CURRENCY);
  }

  private static List<ShopProblem> problems(Wire wire) {
    return VALIDATOR.validate(wire).stream()
        .map(ConstraintViolation::getConstraintDescriptor)
        .map(ShopProblem::of)
        .toList();
  }
}
