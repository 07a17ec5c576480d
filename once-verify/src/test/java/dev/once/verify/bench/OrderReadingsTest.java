package dev.once.verify.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.check.ShopSchemaDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OrderReadingsTest {
  private static ShopSchemaDatabase db;

  @BeforeAll
  static void start() throws Exception {
    db = ShopSchemaDatabase.shared();
  }

  @Test
  void percentilesOfMicrosecondsFromTheDatabaseInAnyOrder() {
    long[] micros = new long[100];
    for (int i = 0; i < 100; i++) {
      micros[i] = (100 - i) * 1_000L; // 100 ms down to 1 ms
    }
    assertThat(OrderReadings.percentilesNanos(micros))
        .isEqualTo(new long[] {50_000_000L, 99_000_000L});
    assertThat(micros[0]).as("the input is left as it was").isEqualTo(100_000L);
    assertThat(OrderReadings.percentilesNanos(new long[] {7}))
        .isEqualTo(new long[] {7_000L, 7_000L});
  }

  @Test
  void noSamplesNoPercentiles() {
    assertThat(OrderReadings.percentilesNanos(new long[0])).isEqualTo(new long[] {-1, -1});
  }

  @Test
  void stockThatAddsUpHasNoProblems() throws Exception {
    try (Connection c = ShopSchemaDatabase.connectUrl(db.newDatabase())) {
      assertThat(OrderReadings.stockProblems(c)).isEqualTo(List.of());
    }
  }

  @Test
  void everyBrokenInvariantIsReported() throws Exception {
    List<String> problems;
    try (Connection c = ShopSchemaDatabase.connectUrl(db.newDatabase());
        Statement s = c.createStatement()) {
      s.execute("ALTER TABLE product DROP CONSTRAINT product_stock_non_negative");
      s.execute("ALTER TABLE product DROP CONSTRAINT product_stock_balanced");
      for (String product :
          List.of(
              "'lost', 100, 0, 90, 5", // available + reserved < initial + restocked
              "'unheld', 100, 0, 90, 10", // reserved, but no reservation holds it
              "'oversold', 0, 0, -2, 2")) { // negative
        s.execute(
            "INSERT INTO product (client_id, sku, name, price, currency, initial_stock, restocked,"
                + " available, reserved, created_at, updated_at) VALUES ('c1', "
                + product.replaceFirst("'(\\w+)'", "'$1', '$1', 1, 'EUR'")
                + ", now(), now())");
      }
      problems = OrderReadings.stockProblems(c);
    }
    assertThat(problems.size()).as(problems.toString()).isEqualTo(3);
    assertThat(problems.get(0))
        .as(problems.get(0))
        .contains("c1/lost breaks")
        .contains("available 90, reserved 5, initial 100, restocked 0, held 0");
    assertThat(problems.get(1))
        .as(problems.get(1))
        .contains("c1/oversold breaks")
        .contains("available -2, reserved 2");
    assertThat(problems.get(2))
        .as(problems.get(2))
        .contains("c1/unheld breaks")
        .contains("reserved 10, initial 100, restocked 0, held 0");
  }
}
