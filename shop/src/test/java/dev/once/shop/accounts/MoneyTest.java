package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.shop.web.InvalidRequestException;
import dev.once.shop.web.ShopProblem;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.JsonNodeFactory;

/** The money wire format: what parses, how it prints, and what is refused. */
class MoneyTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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
    BigDecimal amount = Money.parseAmount("amount", NODES.stringNode(wire));
    assertThat(amount.scale()).isEqualTo(Money.SCALE);
    assertThat(Money.format(amount)).isEqualTo(printed);
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
    assertInvalidAmount(() -> Money.parseAmount("amount", NODES.stringNode(wire)));
  }

  @Test
  void refusesNumbersAndOtherTypes() {
    assertInvalidAmount(() -> Money.parseAmount("amount", NODES.numberNode(new BigDecimal("1"))));
    assertInvalidAmount(() -> Money.parseAmount("amount", NODES.numberNode(1.5)));
    assertInvalidAmount(() -> Money.parseAmount("amount", NODES.booleanNode(true)));
    assertInvalidAmount(() -> Money.parseAmount("amount", NODES.objectNode()));
  }

  @Test
  void printsNegativeAmountsPlainly() {
    assertThat(Money.format(new BigDecimal("-30.25"))).isEqualTo("-30.2500");
    assertThat(Money.format(new BigDecimal("1E+3"))).isEqualTo("1000.0000");
  }

  @ParameterizedTest
  @ValueSource(strings = {"EUR", "USD", "JPY", "CHF"})
  void acceptsKnownCurrencies(String code) {
    assertThat(Money.parseCurrency("currency", NODES.stringNode(code))).isEqualTo(code);
  }

  @ParameterizedTest
  @ValueSource(strings = {"eur", "Eur", "EURO", "EU", "QQQ", "", "E1R", " EUR"})
  void refusesUnknownOrBadlySpeltCurrencies(String code) {
    assertThatThrownBy(() -> Money.parseCurrency("currency", NODES.stringNode(code)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.problem()).isEqualTo(ShopProblem.INVALID_CURRENCY));
  }

  private static void assertInvalidAmount(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.problem()).isEqualTo(ShopProblem.INVALID_AMOUNT);
              assertThat(e.getBody().getProperties()).containsEntry("field", "amount");
            });
  }
}
