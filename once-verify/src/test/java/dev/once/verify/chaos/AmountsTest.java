package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.chaos.Amounts.Kind;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AmountsTest {
  @Test
  void amountsAsTheShopAnswersThem() {
    assertEquals("20.0001", Amounts.amount(Kind.DEPOSIT, 1));
    assertEquals("1.0042", Amounts.amount(Kind.PAYMENT, 42));
    assertEquals("0.0007", Amounts.amount(Kind.REFUND, 7));
    assertEquals("2.0000", Amounts.amount(Kind.PAYMENT, 10_000));
    assertEquals("21.2345", Amounts.amount(Kind.DEPOSIT, 12_345));
  }

  @Test
  void decodeInvertsAmountWhateverTheSignAndScale() {
    for (Kind kind : Kind.values()) {
      for (long n = 1; n < 30_000; n = Amounts.next(n)) {
        String amount = Amounts.amount(kind, n);
        assertEquals(n, Amounts.decode(kind, amount), kind + " " + amount);
        assertEquals(n, Amounts.decode(kind, "-" + amount));
      }
    }
    assertEquals(42, Amounts.decode(Kind.PAYMENT, "1.0042000"));
  }

  @Test
  void decodeRefusesWhatNoIntentHas() {
    assertEquals(-1, Amounts.decode(Kind.PAYMENT, "1.00005"));
    assertEquals(-1, Amounts.decode(Kind.PAYMENT, "1.0000"));
    assertEquals(-1, Amounts.decode(Kind.PAYMENT, "0.5000"));
    assertEquals(-1, Amounts.decode(Kind.PAYMENT, "1.5100"));
    assertEquals(-1, Amounts.decode(Kind.DEPOSIT, "nonsense"));
  }

  @Test
  void amountsAreUniquePerKindAndSkipTheSimulatorsDeclines() {
    Set<String> seen = new HashSet<>();
    long n = 0;
    for (int i = 0; i < 25_000; i++) {
      n = Amounts.next(n);
      String refund = Amounts.amount(Kind.REFUND, n);
      String payment = Amounts.amount(Kind.PAYMENT, n);
      assertTrue(seen.add(refund), refund);
      assertFalse(payment.endsWith(".5100") || payment.endsWith(".5200"), payment);
      assertFalse(refund.endsWith(".5100") || refund.endsWith(".5200"), refund);
    }
    assertFalse(Amounts.usable(5_100));
    assertFalse(Amounts.usable(15_200));
    assertFalse(Amounts.usable(0));
    assertEquals(5_101, Amounts.next(5_099));
    assertThrows(IllegalArgumentException.class, () -> Amounts.amount(Kind.REFUND, 5_200));
  }

  @Test
  void journalKinds() {
    assertEquals(Kind.PAYMENT, Kind.ofJournal("charge"));
    assertEquals(Kind.DEPOSIT, Kind.ofJournal("deposit"));
    assertEquals(Kind.REFUND, Kind.ofJournal("refund"));
    assertEquals(null, Kind.ofJournal("reversal"));
  }
}
