package dev.once.shop.stock;

import static dev.once.shop.support.OrderFixture.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.OrderFixture.Stock;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The design note's gate, statement by statement, without the service's checks in front of it: the
 * reservation insert ({@code ON CONFLICT DO NOTHING}) decides whether HOLD moves stock, and the
 * held-to-released compare-and-set whether RELEASE gives it back. The service reads the reservation
 * states first and never runs them twice for an order; these tests prove the statements would not
 * move stock twice even if it did.
 */
class ReservationGateTest extends ShopIntegrationTest {
  private static final String LINES =
      "[{\"sku\":\"A\",\"quantity\":2},{\"sku\":\"B\",\"quantity\":1}]";

  @Autowired private StockRepository stock;
  @Autowired private TransactionTemplate transactions;

  private OrderFixture shop;
  private TestClient client;
  private String order;

  @BeforeEach
  void anOrder() {
    client = newClient();
    shop = new OrderFixture(client, jdbc);
    shop.product("A", 5);
    shop.product("B", 5);
    order = shop.place(client.openAccount("EUR"), lines("A", 2, "B", 1));
  }

  @Test
  void holdTwiceMovesStockOnce() {
    assertThat(hold()).isEqualTo(2);
    assertThat(hold()).as("second hold: the insert conflicts, nothing moves").isZero();

    assertThat(shop.stock("A")).isEqualTo(new Stock(3, 2));
    assertThat(shop.stock("B")).isEqualTo(new Stock(4, 1));
    // Cancel the order so the held units are accounted for by the invariants, then release twice.
    shop.cancel(order);
    assertThat(release()).containsExactlyInAnyOrder("A", "B");
    assertThat(release()).as("second release: nothing is held any more").isEmpty();
    assertThat(shop.stock("A")).isEqualTo(new Stock(5, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "released", "B", "released"));
  }

  @Test
  void aReleaseBeforeTheHoldVoidsIt() {
    shop.cancel(order);
    assertThat(release()).isEmpty();
    assertThat(hold()).isZero();
    assertThat(release()).isEmpty();

    assertThat(shop.stock("A")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "void", "B", "void"));
  }

  @Test
  void aRejectionIsNeitherHeldNorReleased() {
    transactions.executeWithoutResult(tx -> stock.reject(client.id(), order, LINES, Instant.now()));
    assertThat(hold()).isZero();
    assertThat(shop.stock("A")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "rejected", "B", "rejected"));
    // The order must look rejected for the invariants; the orders consumer would have done it.
    jdbc.sql("UPDATE orders SET status = 'rejected' WHERE id = :id").param("id", order).update();
  }

  private int hold() {
    return transactions.execute(
        tx -> {
          stock.lockForOrder(client.id(), LINES);
          return stock.hold(client.id(), order, LINES, Instant.now());
        });
  }

  private java.util.List<String> release() {
    return transactions.execute(
        tx -> {
          stock.lockForOrder(client.id(), LINES);
          return stock.release(client.id(), order, LINES, Instant.now());
        });
  }
}
