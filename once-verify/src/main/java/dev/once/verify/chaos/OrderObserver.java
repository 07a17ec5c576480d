package dev.once.verify.chaos;

import dev.once.verify.chaos.Observations.OrderObservations;
import dev.once.verify.chaos.Observations.OrderPayment;
import dev.once.verify.chaos.Observations.OrderState;
import dev.once.verify.chaos.Observations.ProductState;
import dev.once.verify.chaos.Observations.ReservationRow;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the orders' side of a quiet run: the products through {@code GET /v1/products/{sku}}; the
 * orders, their items, the reservations and the orders' payments (their description names the
 * order) from the shop's database, since the API lists none of them.
 */
final class OrderObserver {
  private OrderObserver() {}

  /** One row of a result set as a value. */
  private interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

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
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      Map<String, Map<String, Long>> items = new HashMap<>();
      rows(
          s,
          "SELECT order_id, sku, quantity FROM order_item",
          rs ->
              items
                  .computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
                  .put(rs.getString(2), rs.getLong(3)));
      List<OrderState> orders =
          rows(
              s,
              "SELECT id, account_id, status, total, payment_id, refund_id FROM orders ORDER BY id",
              rs ->
                  new OrderState(
                      rs.getString(1),
                      rs.getString(2),
                      rs.getString(3),
                      items.getOrDefault(rs.getString(1), Map.of()),
                      rs.getBigDecimal(4).toPlainString(),
                      rs.getString(5),
                      rs.getString(6)));
      List<ReservationRow> reservations =
          rows(
              s,
              "SELECT order_id, sku, quantity, state FROM reservation",
              rs ->
                  new ReservationRow(
                      rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
      List<OrderPayment> payments =
          rows(
              s,
              "SELECT id, substr(description, 7), status FROM payment"
                  + " WHERE description LIKE 'Order %' ORDER BY id",
              rs -> new OrderPayment(rs.getString(1), rs.getString(2), rs.getString(3)));
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

  private static <T> List<T> rows(Statement s, String sql, Row<T> row) throws SQLException {
    List<T> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(row.read(rs));
      }
    }
    return values;
  }
}
