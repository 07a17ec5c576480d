package dev.once.shop.orders;

import static dev.once.shop.persistence.Timestamps.utc;

import dev.once.shop.persistence.Timestamps;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SQL of the order aggregate (orders and their lines). Every status change is a compare-and-set on
 * the expected current status, or runs on a row the same transaction has locked with {@link #LOCK};
 * an order is always locked before its payment and its account (lock order: V5__orders_stock.sql).
 */
@Repository
class OrderRepository {
  static final String ORDER_COLUMNS =
      """
      o.id, o.account_id, o.status, o.total, o.currency, o.payment_id, o.refund_id, o.created_at,
      o.reserved_at,
      (SELECT json_agg(json_build_object('sku', i.sku, 'quantity', i.quantity,
                                         'price', CAST(i.price AS text)) ORDER BY i.sku)
       FROM order_item i WHERE i.order_id = o.id) AS items
      """;

  /**
   * The order and its lines in one statement, written only if the account is the client's and in
   * the order's currency: zero rows otherwise, nothing written.
   */
  static final String PLACE =
      """
      WITH placed AS (
          INSERT INTO orders (id, client_id, account_id, status, total, currency, created_at,
                              updated_at)
          SELECT :id, :client, a.id, 'placed', :total, :currency, :now, :now
          FROM account a
          WHERE a.id = :account AND a.client_id = :client AND a.currency = :currency
          RETURNING id
      )
      INSERT INTO order_item (order_id, sku, quantity, price)
      SELECT placed.id, line.sku, line.quantity, line.price
      FROM placed, jsonb_to_recordset(CAST(:lines AS jsonb))
           AS line(sku text, quantity bigint, price numeric)
      """;

  static final String FIND =
      "SELECT " + ORDER_COLUMNS + " FROM orders o WHERE o.id = :id AND o.client_id = :client";

  static final String LOCK =
      "SELECT "
          + ORDER_COLUMNS
          + " FROM orders o WHERE o.id = :id AND o.client_id = :client FOR UPDATE OF o";

  /** The order a payment pays, locked; any client's (the payment events are not scoped). */
  static final String LOCK_BY_PAYMENT =
      "SELECT " + ORDER_COLUMNS + " FROM orders o WHERE o.payment_id = :payment FOR UPDATE OF o";

  /** The stock's answer: compare-and-set from placed (a cancelled order stays cancelled). */
  static final String DECIDE =
      """
      UPDATE orders SET status = :status, reserved_at = :reservedAt, updated_at = :now
      WHERE id = :id AND status = 'placed'
      """;

  static final String SET_PAYMENT =
      """
      UPDATE orders SET payment_id = :payment, updated_at = :now
      WHERE id = :id AND status = 'reserved' AND payment_id IS NULL
      """;

  static final String MARK_PAID =
      """
      UPDATE orders SET status = 'paid', updated_at = :now
      WHERE id = :id AND status = 'reserved' AND payment_id = :payment
      """;

  /** A declined payment no longer holds the order, which can be paid again. */
  static final String CLEAR_PAYMENT =
      """
      UPDATE orders SET payment_id = NULL, updated_at = :now
      WHERE payment_id = :payment AND status = 'reserved'
      """;

  static final String CANCEL =
      """
      UPDATE orders SET status = 'cancelled', refund_id = :refund, updated_at = :now
      WHERE id = :id AND status IN ('placed', 'reserved', 'paid')
      """;

  private final JdbcClient jdbc;
  private final JsonMapper json;

  OrderRepository(JdbcClient jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /**
   * Whether the order was written (false: the account is missing, foreign or in another currency).
   */
  boolean place(
      String client,
      String id,
      String account,
      BigDecimal total,
      String currency,
      String linesJson,
      Instant now) {
    return jdbc.sql(PLACE)
            .param("id", id)
            .param("client", client)
            .param("account", account)
            .param("total", total)
            .param("currency", currency)
            .param("lines", linesJson)
            .param("now", utc(now))
            .update()
        > 0;
  }

  Optional<Order> find(String client, String id) {
    return jdbc.sql(FIND).param("id", id).param("client", client).query(this::order).optional();
  }

  Optional<Order> lock(String client, String id) {
    return jdbc.sql(LOCK).param("id", id).param("client", client).query(this::order).optional();
  }

  Optional<Order> lockByPayment(String payment) {
    return jdbc.sql(LOCK_BY_PAYMENT).param("payment", payment).query(this::order).optional();
  }

  /** Moves a placed order to {@code status}; whether it moved. */
  boolean decide(String id, OrderStatus status, Instant now) {
    return jdbc.sql(DECIDE)
            .param("id", id)
            .param("status", status.wireName())
            .param(
                "reservedAt",
                status == OrderStatus.RESERVED ? utc(now) : null,
                Types.TIMESTAMP_WITH_TIMEZONE)
            .param("now", utc(now))
            .update()
        > 0;
  }

  boolean setPayment(String id, String payment, Instant now) {
    return jdbc.sql(SET_PAYMENT)
            .param("id", id)
            .param("payment", payment)
            .param("now", utc(now))
            .update()
        > 0;
  }

  boolean markPaid(String id, String payment, Instant now) {
    return jdbc.sql(MARK_PAID)
            .param("id", id)
            .param("payment", payment)
            .param("now", utc(now))
            .update()
        > 0;
  }

  boolean clearPayment(String payment, Instant now) {
    return jdbc.sql(CLEAR_PAYMENT).param("payment", payment).param("now", utc(now)).update() > 0;
  }

  boolean cancel(String id, Optional<String> refund, Instant now) {
    return jdbc.sql(CANCEL)
            .param("id", id)
            .param("refund", refund.orElse(null), Types.VARCHAR)
            .param("now", utc(now))
            .update()
        > 0;
  }

  private Order order(ResultSet rs, int row) throws SQLException {
    List<Order.Item> items = new ArrayList<>();
    for (JsonNode item : json.readTree(rs.getString("items"))) {
      items.add(
          new Order.Item(
              item.get("sku").asString(),
              item.get("quantity").asLong(),
              new BigDecimal(item.get("price").asString())));
    }
    OffsetDateTime reservedAt = rs.getObject("reserved_at", OffsetDateTime.class);
    return new Order(
        rs.getString("id"),
        rs.getString("account_id"),
        OrderStatus.fromWireName(rs.getString("status")),
        items,
        rs.getBigDecimal("total"),
        rs.getString("currency"),
        Optional.ofNullable(rs.getString("payment_id")),
        Optional.ofNullable(rs.getString("refund_id")),
        Timestamps.read(rs, "created_at"),
        Optional.ofNullable(reservedAt).map(OffsetDateTime::toInstant));
  }
}
