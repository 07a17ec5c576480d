package dev.once.verify.chaos;

import dev.once.verify.chaos.Observations.OrderObservations;
import dev.once.verify.chaos.Observations.OrderPayment;
import dev.once.verify.chaos.Observations.OrderState;
import dev.once.verify.chaos.Observations.ProductState;
import dev.once.verify.chaos.Observations.ReservationRow;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the orders' side of a quiet run: the products through {@code GET /v1/products/{sku}}; the
 * orders of the run's own accounts, their items, the reservations and the orders' payments (their
 * description names the order) from the shop's database, since the API lists none of them.
 */
final class OrderObserver {
  private OrderObserver() {}

  static OrderObservations observe(Workload w, Http shop, ChaosDatabase db)
      throws IOException, InterruptedException, SQLException {
    List<ProductState> products = new ArrayList<>();
    for (Map.Entry<String, String> p : w.productOwners.entrySet()) {
      Http.Answer a = shop.get("/v1/products/" + p.getKey(), p.getValue());
      if (a.status() != 200) {
        throw new IOException("GET product " + p.getKey() + ": " + a.status() + " " + a.body());
      }
      products.add(
          new ProductState(
              p.getKey(),
              Long.parseLong(Http.number(a.body(), "stock")),
              Long.parseLong(Http.number(a.body(), "reserved"))));
    }
    // Only the run's own accounts: an attached run may share the database with earlier ones.
    Object accounts = w.accounts.toArray(new String[0]);
    Map<String, Map<String, Long>> items = new HashMap<>();
    db.rows(
        "SELECT i.order_id, i.sku, i.quantity FROM order_item i JOIN orders o ON o.id ="
            + " i.order_id WHERE o.account_id = ANY (?)",
        rs ->
            items
                .computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
                .put(rs.getString(2), rs.getLong(3)),
        accounts);
    List<OrderState> orders =
        db.rows(
            "SELECT id, account_id, status, total, payment_id, refund_id FROM orders"
                + " WHERE account_id = ANY (?) ORDER BY id",
            rs ->
                new OrderState(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    items.getOrDefault(rs.getString(1), Map.of()),
                    rs.getBigDecimal(4).toPlainString(),
                    rs.getString(5),
                    rs.getString(6)),
            accounts);
    List<ReservationRow> reservations =
        db.rows(
            "SELECT r.order_id, r.sku, r.quantity, r.state FROM reservation r JOIN orders o ON"
                + " o.id = r.order_id WHERE o.account_id = ANY (?)",
            rs ->
                new ReservationRow(
                    rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)),
            accounts);
    List<OrderPayment> payments =
        db.rows(
            "SELECT id, substr(description, 7), status FROM payment"
                + " WHERE account_id = ANY (?) AND description LIKE 'Order %' ORDER BY id",
            rs -> new OrderPayment(rs.getString(1), rs.getString(2), rs.getString(3)), accounts);
    return new OrderObservations(
        List.copyOf(w.placed),
        List.copyOf(w.orderActions),
        List.copyOf(w.restocks),
        Map.copyOf(w.initialStock),
        products,
        orders,
        reservations,
        payments);
  }
}
