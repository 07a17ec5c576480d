package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.verify.chaos.Amounts.Kind;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AmountsTest {
  @Test
  void amountsAsTheShopAnswersThem() {
    assertThat(Amounts.amount(Kind.DEPOSIT, 1)).isEqualTo("20.0001");
    assertThat(Amounts.amount(Kind.PAYMENT, 42)).isEqualTo("1.0042");
    assertThat(Amounts.amount(Kind.REFUND, 7)).isEqualTo("0.0007");
    assertThat(Amounts.amount(Kind.PAYMENT, 10_000)).isEqualTo("2.0000");
    assertThat(Amounts.amount(Kind.DEPOSIT, 12_345)).isEqualTo("21.2345");
  }

  @Test
  void decodeInvertsAmountWhateverTheSignAndScale() {
    for (Kind kind : Kind.values()) {
      for (long n = 1; n < 30_000; n = Amounts.next(n)) {
        String amount = Amounts.amount(kind, n);
        assertThat(Amounts.decode(kind, amount)).as(kind + " " + amount).isEqualTo(n);
        assertThat(Amounts.decode(kind, "-" + amount)).isEqualTo(n);
      }
    }
    assertThat(Amounts.decode(Kind.PAYMENT, "1.0042000")).isEqualTo(42);
  }

  @Test
  void decodeRefusesWhatNoIntentHas() {
    assertThat(Amounts.decode(Kind.PAYMENT, "1.00005")).isEqualTo(-1);
    assertThat(Amounts.decode(Kind.PAYMENT, "1.0000")).isEqualTo(-1);
    assertThat(Amounts.decode(Kind.PAYMENT, "0.5000")).isEqualTo(-1);
    assertThat(Amounts.decode(Kind.PAYMENT, "1.5100")).isEqualTo(-1);
    assertThat(Amounts.decode(Kind.DEPOSIT, "nonsense")).isEqualTo(-1);
  }

  @Test
  void amountsAreUniquePerKindAndSkipTheSimulatorsDeclines() {
    Set<String> seen = new HashSet<>();
    long n = 0;
    for (int i = 0; i < 25_000; i++) {
      n = Amounts.next(n);
      String refund = Amounts.amount(Kind.REFUND, n);
      String payment = Amounts.amount(Kind.PAYMENT, n);
      assertThat(seen.add(refund)).as(refund).isTrue();
      assertThat(payment.endsWith(".5100") || payment.endsWith(".5200")).as(payment).isFalse();
      assertThat(refund.endsWith(".5100") || refund.endsWith(".5200")).as(refund).isFalse();
    }
    assertThat(Amounts.usable(5_100)).isFalse();
    assertThat(Amounts.usable(15_200)).isFalse();
    assertThat(Amounts.usable(0)).isFalse();
    assertThat(Amounts.next(5_099)).isEqualTo(5_101);
    assertThatExceptionOfType(IllegalArgumentException.class)
        .isThrownBy(() -> Amounts.amount(Kind.REFUND, 5_200));
  }

  @Test
  void journalKinds() {
    assertThat(Kind.ofJournal("charge")).isEqualTo(Kind.PAYMENT);
    assertThat(Kind.ofJournal("deposit")).isEqualTo(Kind.DEPOSIT);
    assertThat(Kind.ofJournal("refund")).isEqualTo(Kind.REFUND);
    assertThat(Kind.ofJournal("reversal")).isEqualTo(null);
  }
}
